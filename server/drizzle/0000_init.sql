CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "app_data_step" (
	"name" varchar(200) PRIMARY KEY NOT NULL,
	"run_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_captcha" (
	"key" varchar(64) PRIMARY KEY NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"expire_time" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_refresh_token" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"session_id" bigint NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"expire_time" timestamp with time zone NOT NULL,
	"used_time" timestamp with time zone,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_session" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"user_id" bigint NOT NULL,
	"client_id" varchar(48) NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_refresh_time" timestamp with time zone,
	"expire_time" timestamp with time zone NOT NULL,
	"revoked_time" timestamp with time zone,
	"revoke_reason" varchar(64),
	"remote_ip" varchar(64),
	"user_agent" varchar(500)
);
--> statement-breakpoint
CREATE TABLE "blade_client" (
	"id" bigint PRIMARY KEY NOT NULL,
	"client_id" varchar(48) NOT NULL,
	"client_secret" varchar(256) NOT NULL,
	"resource_ids" varchar(256),
	"scope" varchar(256) DEFAULT 'all' NOT NULL,
	"authorized_grant_types" varchar(256) NOT NULL,
	"web_server_redirect_uri" varchar(256),
	"authorities" varchar(256),
	"access_token_validity" integer DEFAULT 3600 NOT NULL,
	"refresh_token_validity" integer DEFAULT 604800 NOT NULL,
	"additional_information" varchar(4096),
	"autoapprove" varchar(256),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_dept" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"ancestors" varchar(2000) DEFAULT '0' NOT NULL,
	"dept_name" varchar(100) NOT NULL,
	"full_name" varchar(255),
	"dept_category" smallint DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "blade_dict" (
	"id" bigint PRIMARY KEY NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"code" varchar(100) NOT NULL,
	"dict_key" varchar(100) NOT NULL,
	"dict_value" varchar(255) NOT NULL,
	"dict_value_en" varchar(255),
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" varchar(500),
	"is_sealed" smallint DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_log_api" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"service_id" varchar(64),
	"server_host" varchar(255),
	"server_ip" varchar(255),
	"env" varchar(32),
	"method" varchar(16),
	"request_uri" varchar(2000),
	"user_agent" varchar(1000),
	"remote_ip" varchar(64),
	"method_class" varchar(255),
	"method_name" varchar(255),
	"params" text,
	"time" integer,
	"create_by" varchar(64),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"type" varchar(16) DEFAULT '1' NOT NULL,
	"title" varchar(255),
	"status" integer
);
--> statement-breakpoint
CREATE TABLE "blade_log_error" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"service_id" varchar(64),
	"server_host" varchar(255),
	"server_ip" varchar(255),
	"env" varchar(32),
	"method" varchar(16),
	"request_uri" varchar(2000),
	"user_agent" varchar(1000),
	"remote_ip" varchar(64),
	"method_class" varchar(255),
	"method_name" varchar(255),
	"params" text,
	"time" integer,
	"create_by" varchar(64),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"type" varchar(16) DEFAULT 'server' NOT NULL,
	"stack_trace" text,
	"exception_name" varchar(255),
	"message" text,
	"file_name" varchar(1000),
	"line_number" integer
);
--> statement-breakpoint
CREATE TABLE "blade_log_usual" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"service_id" varchar(64),
	"server_host" varchar(255),
	"server_ip" varchar(255),
	"env" varchar(32),
	"method" varchar(16),
	"request_uri" varchar(2000),
	"user_agent" varchar(1000),
	"remote_ip" varchar(64),
	"method_class" varchar(255),
	"method_name" varchar(255),
	"params" text,
	"time" integer,
	"create_by" varchar(64),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"log_level" varchar(16),
	"log_id" varchar(100),
	"log_data" text
);
--> statement-breakpoint
CREATE TABLE "blade_menu" (
	"id" bigint PRIMARY KEY NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"code" varchar(100) NOT NULL,
	"name" varchar(100) NOT NULL,
	"name_en" varchar(100),
	"alias" varchar(100) DEFAULT 'menu' NOT NULL,
	"path" varchar(500),
	"source" varchar(255),
	"sort" integer DEFAULT 0 NOT NULL,
	"category" smallint DEFAULT 1 NOT NULL,
	"action" smallint DEFAULT 0 NOT NULL,
	"is_open" smallint DEFAULT 1 NOT NULL,
	"component" varchar(255),
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
CREATE TABLE "blade_notice" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"title" varchar(255) NOT NULL,
	"category" integer NOT NULL,
	"release_time" timestamp with time zone NOT NULL,
	"content" text,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_param" (
	"id" bigint PRIMARY KEY NOT NULL,
	"param_name" varchar(255) NOT NULL,
	"param_key" varchar(255) NOT NULL,
	"param_value" text NOT NULL,
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
CREATE TABLE "blade_role" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"role_name" varchar(100) NOT NULL,
	"role_alias" varchar(100) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_role_menu" (
	"role_id" bigint NOT NULL,
	"menu_id" bigint NOT NULL,
	CONSTRAINT "blade_role_menu_role_id_menu_id_pk" PRIMARY KEY("role_id","menu_id")
);
--> statement-breakpoint
CREATE TABLE "blade_tenant" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"tenant_name" varchar(100) NOT NULL,
	"domain" varchar(255),
	"background_url" varchar(1000),
	"linkman" varchar(50),
	"contact_number" varchar(30),
	"address" varchar(255),
	"account_number" integer DEFAULT -1 NOT NULL,
	"expire_time" timestamp with time zone,
	"package_id" bigint,
	"datasource_id" bigint,
	"license_key" varchar(1000),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_top_menu" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(100) NOT NULL,
	"name" varchar(100) NOT NULL,
	"name_en" varchar(100),
	"source" varchar(255),
	"path" varchar(500),
	"sort" integer DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_top_menu_setting" (
	"top_menu_id" bigint NOT NULL,
	"menu_id" bigint NOT NULL,
	CONSTRAINT "blade_top_menu_setting_top_menu_id_menu_id_pk" PRIMARY KEY("top_menu_id","menu_id")
);
--> statement-breakpoint
CREATE TABLE "blade_user" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"code" varchar(32),
	"account" varchar(64) NOT NULL,
	"password" varchar(255) NOT NULL,
	"name" varchar(64),
	"real_name" varchar(64),
	"avatar" varchar(1000),
	"email" varchar(128),
	"phone" varchar(32),
	"birthday" timestamp with time zone,
	"sex" smallint,
	"role_id" varchar(1000) DEFAULT '' NOT NULL,
	"dept_id" varchar(1000) DEFAULT '' NOT NULL,
	"post_id" varchar(1000) DEFAULT '' NOT NULL,
	"user_type" smallint DEFAULT 1 NOT NULL,
	"login_fail_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "uq_refresh_hash" ON "auth_refresh_token" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "ix_refresh_session" ON "auth_refresh_token" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "ix_session_user" ON "auth_session" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "ix_session_revoked" ON "auth_session" USING btree ("revoked_time");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_client_client_id" ON "blade_client" USING btree ("client_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_dept_tenant" ON "blade_dept" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_dict_code_key" ON "blade_dict" USING btree ("code","dict_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_dict_parent" ON "blade_dict" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "ix_log_api_tenant_time" ON "blade_log_api" USING btree ("tenant_id","create_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_log_error_tenant_time" ON "blade_log_error" USING btree ("tenant_id","create_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_log_usual_tenant_time" ON "blade_log_usual" USING btree ("tenant_id","create_time" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "uq_menu_code" ON "blade_menu" USING btree ("code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_menu_parent" ON "blade_menu" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "ix_notice_tenant_time" ON "blade_notice" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_notice_tenant_release" ON "blade_notice" USING btree ("tenant_id","release_time" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_notice_title_trgm" ON "blade_notice" USING gin (title gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "uq_param_key" ON "blade_param" USING btree ("param_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_role_tenant" ON "blade_role" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "ix_role_menu_menu" ON "blade_role_menu" USING btree ("menu_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_tenant_tenant_id" ON "blade_tenant" USING btree ("tenant_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_user_account" ON "blade_user" USING btree ("tenant_id","account") WHERE is_deleted = 0;