-- Read state of notices per user (the header's bell). Reads one by one are rows of blade_notice_read;
-- "mark all as read" is a watermark per user (category -1: every category) in blade_notice_read_mark, so
-- neither table grows with the number of notices. Both are tenant tables under row-level security.
CREATE TABLE "blade_notice_read" (
	"tenant_id" varchar(12) NOT NULL,
	"user_id" bigint NOT NULL,
	"notice_id" bigint NOT NULL,
	"read_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blade_notice_read_pkey" PRIMARY KEY("user_id","notice_id")
);
--> statement-breakpoint
CREATE TABLE "blade_notice_read_mark" (
	"tenant_id" varchar(12) NOT NULL,
	"user_id" bigint NOT NULL,
	"category" integer NOT NULL,
	"read_until" timestamp with time zone NOT NULL,
	CONSTRAINT "blade_notice_read_mark_pkey" PRIMARY KEY("user_id","category")
);
--> statement-breakpoint
CREATE INDEX "ix_notice_read_notice" ON "blade_notice_read" USING btree ("notice_id");--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_notice_read'::regclass);
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_notice_read_mark'::regclass);
