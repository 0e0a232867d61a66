CREATE TABLE "ymy_brand" (
	"id" bigint PRIMARY KEY NOT NULL,
	"brand_name" varchar(64) NOT NULL,
	"logo" varchar(1000),
	"website" varchar(500),
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"brand_name_grams" text[] GENERATED ALWAYS AS (app_grams("brand_name")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_product" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_name" varchar(64) NOT NULL,
	"product_code" varchar(32) NOT NULL,
	"type_id" bigint NOT NULL,
	"model_id" bigint NOT NULL,
	"brand_id" bigint,
	"project_id" bigint,
	"cloud_vendor" integer NOT NULL,
	"cloud_product_id" varchar(64),
	"image" varchar(1000),
	"description" text,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"product_name_grams" text[] GENERATED ALWAYS AS (app_grams("product_name")) STORED,
	"product_code_grams" text[] GENERATED ALWAYS AS (app_grams("product_code")) STORED,
	"cloud_product_id_grams" text[] GENERATED ALWAYS AS (app_grams("cloud_product_id")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_product_model" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type_id" bigint NOT NULL,
	"model_name" varchar(64) NOT NULL,
	"model_code" varchar(32) NOT NULL,
	"image" varchar(1000),
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"model_name_grams" text[] GENERATED ALWAYS AS (app_grams("model_name")) STORED,
	"model_code_grams" text[] GENERATED ALWAYS AS (app_grams("model_code")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_product_type" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type_name" varchar(64) NOT NULL,
	"type_code" varchar(32) NOT NULL,
	"icon" varchar(1000),
	"sort" integer DEFAULT 1 NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"type_name_grams" text[] GENERATED ALWAYS AS (app_grams("type_name")) STORED,
	"type_code_grams" text[] GENERATED ALWAYS AS (app_grams("type_code")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_project" (
	"id" bigint PRIMARY KEY NOT NULL,
	"project_name" varchar(64) NOT NULL,
	"project_code" varchar(32) NOT NULL,
	"model_id" bigint,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"project_name_grams" text[] GENERATED ALWAYS AS (app_grams("project_name")) STORED,
	"project_code_grams" text[] GENERATED ALWAYS AS (app_grams("project_code")) STORED
);
--> statement-breakpoint
CREATE UNIQUE INDEX "uq_brand_name" ON "ymy_brand" USING btree ("brand_name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_brand_time" ON "ymy_brand" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_brand_brand_name_grams" ON "ymy_brand" USING gin ("brand_name_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_product_code" ON "ymy_product" USING btree ("product_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_type" ON "ymy_product" USING btree ("type_id","create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_model" ON "ymy_product" USING btree ("model_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_time" ON "ymy_product" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_product_name_grams" ON "ymy_product" USING gin ("product_name_grams");--> statement-breakpoint
CREATE INDEX "ix_product_product_code_grams" ON "ymy_product" USING gin ("product_code_grams");--> statement-breakpoint
CREATE INDEX "ix_product_cloud_product_id_grams" ON "ymy_product" USING gin ("cloud_product_id_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_product_model_code" ON "ymy_product_model" USING btree ("model_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_model_type" ON "ymy_product_model" USING btree ("type_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_model_time" ON "ymy_product_model" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_model_model_name_grams" ON "ymy_product_model" USING gin ("model_name_grams");--> statement-breakpoint
CREATE INDEX "ix_product_model_model_code_grams" ON "ymy_product_model" USING gin ("model_code_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_product_type_name" ON "ymy_product_type" USING btree ("type_name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_product_type_code" ON "ymy_product_type" USING btree ("type_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_product_type_type_name_grams" ON "ymy_product_type" USING gin ("type_name_grams");--> statement-breakpoint
CREATE INDEX "ix_product_type_type_code_grams" ON "ymy_product_type" USING gin ("type_code_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_project_code" ON "ymy_project" USING btree ("project_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_project_model" ON "ymy_project" USING btree ("model_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_project_time" ON "ymy_project" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_project_project_name_grams" ON "ymy_project" USING gin ("project_name_grams");--> statement-breakpoint
CREATE INDEX "ix_project_project_code_grams" ON "ymy_project" USING gin ("project_code_grams");