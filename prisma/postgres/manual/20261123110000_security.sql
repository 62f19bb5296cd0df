-- Append-only audit log: the PostgreSQL form of the SQLite migration's two triggers (same names),
-- so the database refuses to change or remove an audit row whatever code path asks.
CREATE FUNCTION "AuditEvent_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'AuditEvent is append-only';
END $$;

CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent"
    FOR EACH ROW EXECUTE FUNCTION "AuditEvent_append_only"();

CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
    FOR EACH ROW EXECUTE FUNCTION "AuditEvent_append_only"();
