DROP INDEX "ix_log_api_tenant_time";--> statement-breakpoint
DROP INDEX "ix_log_error_tenant_time";--> statement-breakpoint
DROP INDEX "ix_log_usual_tenant_time";--> statement-breakpoint
DROP INDEX "ix_notice_tenant_time";--> statement-breakpoint
DROP INDEX "ix_notice_tenant_release";--> statement-breakpoint
CREATE INDEX "ix_log_api_tenant_time" ON "blade_log_api" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ix_log_error_tenant_time" ON "blade_log_error" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ix_log_usual_tenant_time" ON "blade_log_usual" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ix_notice_tenant_time" ON "blade_notice" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_notice_tenant_release" ON "blade_notice" USING btree ("tenant_id","release_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;