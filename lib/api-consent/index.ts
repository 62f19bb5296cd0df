export { checkNetworkApiScopes, consentBasedScopes, networkApiScopeProblem, type NetworkApiRequest } from "./check-scopes";
export { listApiConsents, recordApiConsent, recordApiConsentIn, scopeCarries, withdrawApiConsent, type ApiConsentView } from "./consents";
export { missingApiConsent, needsApiConsent } from "./needs-api-consent";
export { refreshRefusal } from "./refresh-check";
export {
  declaredBases, LEGAL_BASES, listApiPurposes, PurposeDeclarationError, removeApiPurpose, setApiPurpose,
  type ApiPurposeDeclaration, type LegalBasis,
} from "./purposes";
