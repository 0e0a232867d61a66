-- SN prefixes are ranges of a btree in COLLATE "C" (the database's collation may not be C), as migration 0017 made the devices' SNs
ALTER TABLE "ymy_device_area" ALTER COLUMN "device_sn" SET DATA TYPE varchar(32) COLLATE "C";--> statement-breakpoint
ALTER TABLE "ymy_device_area_oa" ALTER COLUMN "device_sn" SET DATA TYPE varchar(32) COLLATE "C";--> statement-breakpoint
ALTER TABLE "ymy_device_area_warn" ALTER COLUMN "device_sn" SET DATA TYPE varchar(32) COLLATE "C";--> statement-breakpoint
ALTER TABLE "ymy_device_area_modify" ALTER COLUMN "device_sn" SET DATA TYPE varchar(32) COLLATE "C";--> statement-breakpoint
ALTER TABLE "ymy_area_dispatch" ALTER COLUMN "device_sn" SET DATA TYPE varchar(32) COLLATE "C";--> statement-breakpoint
ALTER TABLE "ymy_area_dispatch_oa" ALTER COLUMN "device_sn" SET DATA TYPE varchar(32) COLLATE "C";--> statement-breakpoint
CREATE INDEX "ix_area_dispatch_sn" ON "ymy_area_dispatch" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_area_dispatch_oa_sn" ON "ymy_area_dispatch_oa" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_oa_sn" ON "ymy_device_area_oa" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;