CREATE TABLE "ymy_postsale_user" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"phone" varchar(32) NOT NULL,
	"nickname" varchar(64),
	"avatar" varchar(1000),
	"password" varchar(255) NOT NULL,
	"password_time" timestamp with time zone DEFAULT now() NOT NULL,
	"register_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"phone_grams" text[] GENERATED ALWAYS AS (app_grams("phone")) STORED,
	"nickname_grams" text[] GENERATED ALWAYS AS (app_grams("nickname")) STORED
);
--> statement-breakpoint
CREATE UNIQUE INDEX "uq_postsale_user_phone" ON "ymy_postsale_user" USING btree ("tenant_id","phone") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_postsale_user_time" ON "ymy_postsale_user" USING btree ("tenant_id","register_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_postsale_user_phone_grams" ON "ymy_postsale_user" USING gin ("phone_grams");--> statement-breakpoint
CREATE INDEX "ix_postsale_user_nickname_grams" ON "ymy_postsale_user" USING gin ("nickname_grams");
--> statement-breakpoint
SELECT app_enable_tenant_rls('ymy_postsale_user');
