-- English names of roles and departments, answered to callers whose language is English (the Chinese
-- name while empty), as menus (name_en) and dictionaries (dict_value_en) already have.
ALTER TABLE "blade_role" ADD COLUMN IF NOT EXISTS "role_name_en" varchar(100);--> statement-breakpoint
ALTER TABLE "blade_dept" ADD COLUMN IF NOT EXISTS "dept_name_en" varchar(100);
