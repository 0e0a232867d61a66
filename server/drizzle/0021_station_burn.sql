CREATE TABLE "ymy_burn_record" (
	"id" bigint PRIMARY KEY NOT NULL,
	"station_id" bigint NOT NULL,
	"device_sn" varchar(32) NOT NULL,
	"batch_id" bigint NOT NULL,
	"certificate_id" bigint NOT NULL,
	"remote_ip" varchar(64),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ymy_station" ADD COLUMN "key_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "ymy_station" ADD COLUMN "key_time" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "ix_burn_record_device" ON "ymy_burn_record" USING btree ("device_sn","create_time");--> statement-breakpoint
CREATE INDEX "ix_burn_record_station" ON "ymy_burn_record" USING btree ("station_id","create_time");