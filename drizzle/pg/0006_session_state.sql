CREATE TABLE "session_state" (
	"digest" text NOT NULL,
	"item" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL,
	CONSTRAINT "session_state_digest_item_pk" PRIMARY KEY("digest","item")
);
