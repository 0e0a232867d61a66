CREATE TABLE "blade_role_scope" (
	"role_id" bigint NOT NULL,
	"scope_id" bigint NOT NULL,
	"scope_category" integer NOT NULL,
	CONSTRAINT "blade_role_scope_role_id_scope_id_pk" PRIMARY KEY("role_id","scope_id")
);
--> statement-breakpoint
CREATE TABLE "blade_scope_api" (
	"id" bigint PRIMARY KEY NOT NULL,
	"menu_id" bigint NOT NULL,
	"resource_code" varchar(255) NOT NULL,
	"scope_name" varchar(255) NOT NULL,
	"scope_path" varchar(500) NOT NULL,
	"scope_type" smallint NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_scope_data" (
	"id" bigint PRIMARY KEY NOT NULL,
	"menu_id" bigint NOT NULL,
	"resource_code" varchar(255) NOT NULL,
	"scope_name" varchar(255) NOT NULL,
	"scope_column" varchar(255) NOT NULL,
	"scope_type" smallint NOT NULL,
	"scope_value" text,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_tenant_package" (
	"id" bigint PRIMARY KEY NOT NULL,
	"package_name" varchar(50) NOT NULL,
	"menu_id" text DEFAULT '' NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_user_dept" (
	"tenant_id" varchar(12) NOT NULL,
	"user_id" bigint NOT NULL,
	"dept_id" bigint NOT NULL,
	CONSTRAINT "blade_user_dept_user_id_dept_id_pk" PRIMARY KEY("user_id","dept_id")
);
--> statement-breakpoint
CREATE TABLE "blade_post" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"category" integer NOT NULL,
	"post_code" varchar(64) NOT NULL,
	"post_name" varchar(64) NOT NULL,
	"sort" integer DEFAULT 1 NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_region" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(12) NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"ancestors" varchar(255) DEFAULT '0' NOT NULL,
	"name" varchar(64) NOT NULL,
	"region_level" smallint NOT NULL,
	"province_code" varchar(12),
	"province_name" varchar(64),
	"city_code" varchar(12),
	"city_name" varchar(64),
	"district_code" varchar(12),
	"district_name" varchar(64),
	"sort" integer DEFAULT 1 NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "user_ext" text;--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "password_reset" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "ix_role_scope_scope" ON "blade_role_scope" USING btree ("scope_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_scope_api_code" ON "blade_scope_api" USING btree ("resource_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_scope_data_code" ON "blade_scope_data" USING btree ("resource_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_scope_data_menu" ON "blade_scope_data" USING btree ("menu_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_tenant_package_name" ON "blade_tenant_package" USING btree ("package_name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_user_dept_dept" ON "blade_user_dept" USING btree ("tenant_id","dept_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_post_code" ON "blade_post" USING btree ("tenant_id","post_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_post_tenant_sort" ON "blade_post" USING btree ("tenant_id","sort","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_region_code" ON "blade_region" USING btree ("code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_region_parent" ON "blade_region" USING btree ("parent_id","sort") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_dept_parent" ON "blade_dept" USING btree ("tenant_id","parent_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_user_tenant_time" ON "blade_user" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;
--> statement-breakpoint
SELECT app_enable_tenant_rls(t::regclass) FROM unnest(ARRAY['blade_post', 'blade_user_dept']) AS t;
--> statement-breakpoint
INSERT INTO blade_user_dept (tenant_id, user_id, dept_id)
  SELECT u.tenant_id, u.id, d::bigint FROM blade_user u, unnest(string_to_array(u.dept_id, ',')) AS d
  WHERE u.is_deleted = 0 AND d ~ '^[0-9]+$' ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- blade_user.dept_id stays the comma list BladeX clients read and write; this trigger keeps its pairs
-- in blade_user_dept for every write (the engine, seeds, imports), so lists by department use an index.
CREATE OR REPLACE FUNCTION app_sync_user_dept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM blade_user_dept WHERE user_id = NEW.id;
  IF NEW.is_deleted = 0 THEN
    INSERT INTO blade_user_dept (tenant_id, user_id, dept_id)
      SELECT NEW.tenant_id, NEW.id, d::bigint FROM unnest(string_to_array(NEW.dept_id, ',')) AS d
      WHERE d ~ '^[0-9]+$' ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tr_user_dept AFTER INSERT OR UPDATE OF dept_id, is_deleted ON blade_user
  FOR EACH ROW EXECUTE FUNCTION app_sync_user_dept();
