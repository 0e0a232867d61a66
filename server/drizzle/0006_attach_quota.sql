-- Each upload checks the tenant's storage quota by summing the size of its live attachments. A covering
-- index (tenant, size) of the live rows answers that sum from the index alone, without visiting the table.
CREATE INDEX IF NOT EXISTS "ix_attach_tenant_size" ON "blade_attach" USING btree ("tenant_id") INCLUDE ("attach_size") WHERE is_deleted = 0;
