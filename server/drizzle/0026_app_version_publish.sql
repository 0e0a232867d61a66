ALTER TABLE "ymy_app_version" ADD COLUMN "publish_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ymy_app_version" ADD COLUMN "publish_user" bigint;--> statement-breakpoint
ALTER TABLE "ymy_app_version" ADD COLUMN "publish_user_name" varchar(64);