CREATE TABLE "ymy_station_operator" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"factory_id" bigint NOT NULL,
	"station_ids" varchar(2000) DEFAULT '' NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ix_station_operator_factory" ON "ymy_station_operator" USING btree ("factory_id");