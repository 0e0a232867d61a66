CREATE TABLE "ymy_area_agent" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"agent_name" varchar(64) NOT NULL,
	"contact" varchar(32),
	"phone" varchar(32),
	"region_codes" text NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"agent_name_grams" text[] GENERATED ALWAYS AS (app_grams("agent_name")) STORED,
	"contact_grams" text[] GENERATED ALWAYS AS (app_grams("contact")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_area_agent_region" (
	"tenant_id" varchar(12) NOT NULL,
	"region_code" varchar(12) NOT NULL,
	"agent_id" bigint NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ymy_area_agent_region_tenant_id_region_code_pk" PRIMARY KEY("tenant_id","region_code")
);
--> statement-breakpoint
CREATE INDEX "ix_area_agent_tenant_time" ON "ymy_area_agent" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_area_agent_agent_name_grams" ON "ymy_area_agent" USING gin ("agent_name_grams");--> statement-breakpoint
CREATE INDEX "ix_area_agent_contact_grams" ON "ymy_area_agent" USING gin ("contact_grams");--> statement-breakpoint
CREATE INDEX "ix_area_agent_region_agent" ON "ymy_area_agent_region" USING btree ("agent_id");