/**
 * FOUNDATION PLACEHOLDER (the delivery stream replaces it): the worker that delivers BackchannelNotification
 * rows (ping and push) and sweeps expired ping/push requests. kickBackchannelDelivery wakes it after a commit.
 */
export function kickBackchannelDelivery(): void {}
