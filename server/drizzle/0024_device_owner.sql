ALTER TABLE "ymy_factory_device" ADD COLUMN "owner_tenant_id" varchar(12) DEFAULT '000000' NOT NULL;--> statement-breakpoint
ALTER TABLE "ymy_factory_device" ADD COLUMN "deliver_id" bigint;--> statement-breakpoint
CREATE INDEX "ix_face_log_sn" ON "ymy_face_log" USING btree ("device_sn","event_time");--> statement-breakpoint
CREATE INDEX "ix_ota_log_sn" ON "ymy_ota_log" USING btree ("device_sn","report_time");--> statement-breakpoint
CREATE INDEX "ix_cert_device_sn" ON "ymy_cert" USING btree ("device_sn") WHERE is_deleted = 0 and device_sn is not null;--> statement-breakpoint
CREATE INDEX "ix_factory_device_owner" ON "ymy_factory_device" USING btree ("owner_tenant_id","sn");--> statement-breakpoint
CREATE INDEX "ix_factory_device_deliver" ON "ymy_factory_device" USING btree ("deliver_id","sn") WHERE deliver_id is not null;--> statement-breakpoint
CREATE INDEX "ix_factory_device_undelivered_batch" ON "ymy_factory_device" USING btree ("batch_id","sn") WHERE deliver_id is null;--> statement-breakpoint
CREATE INDEX "ix_factory_device_undelivered_product" ON "ymy_factory_device" USING btree ("product_id","sn") WHERE deliver_id is null;--> statement-breakpoint
-- hand-written (keep on regeneration)
-- Backfill: each live delivery, oldest first, takes the next `quantity` undelivered devices of its batch (or, without a
-- batch, of its product) in SN order, as a delivery made today would; a delivery that asked for more devices than
-- were left takes what there is (docs/decisions.md, "A lock belongs to the tenant it was delivered to").
DO $$
DECLARE d record;
BEGIN
  FOR d IN SELECT id, product_id, batch_id, customer_tenant_id, quantity FROM ymy_deliver WHERE is_deleted = 0 ORDER BY deliver_time, id LOOP
    UPDATE ymy_factory_device f SET owner_tenant_id = d.customer_tenant_id, deliver_id = d.id
    WHERE f.id IN (
      SELECT u.id FROM ymy_factory_device u
      WHERE u.deliver_id IS NULL AND u.product_id = d.product_id AND (d.batch_id IS NULL OR u.batch_id = d.batch_id)
      ORDER BY u.sn LIMIT d.quantity);
  END LOOP;
END $$;
