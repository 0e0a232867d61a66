CREATE TABLE "ymy_explain" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"title" varchar(128) NOT NULL,
	"language" varchar(16) NOT NULL,
	"version" varchar(32) NOT NULL,
	"file" varchar(1000) NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"title_grams" text[] GENERATED ALWAYS AS (app_grams("title")) STORED
);
--> statement-breakpoint
CREATE INDEX "ix_explain_product" ON "ymy_explain" USING btree ("product_id","create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_explain_time" ON "ymy_explain" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_explain_title_grams" ON "ymy_explain" USING gin ("title_grams");