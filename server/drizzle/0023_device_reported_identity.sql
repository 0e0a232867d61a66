ALTER TABLE "ymy_device_status" ADD COLUMN "mac" varchar(17);--> statement-breakpoint
ALTER TABLE "ymy_device_status" ADD COLUMN "imei" varchar(16);--> statement-breakpoint
ALTER TABLE "ymy_device_status" ADD COLUMN "presence_session" varchar(64);