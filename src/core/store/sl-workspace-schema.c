/* sl-workspace-schema.c
 *
 * The schema of the workspace database, as a list of migrations. Version N
 * of the schema is what the first N migrations build; PRAGMA user_version
 * holds the version of a database file. To change the schema, append one
 * entry to migrations[] and never edit a released one: databases in the
 * field only ever run the steps they have not run yet.
 *
 * What is never stored: passwords, passphrases, private keys or any other
 * secret. A target keeps how to reach a machine (host, user, which kind of
 * authentication, the path of an identity file), not the means to prove
 * who you are; those are asked for when a connection needs them. No table
 * has a column for one, and tests/unit/test-workspace-store.c checks it.
 *
 * Times are INTEGER microseconds since the Unix epoch (as g_get_real_time()).
 * Lists of strings are JSON arrays in TEXT columns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-schema.h"

static const char * const migration_1[] = {
  /* Which builds created and last opened the file, to make sense of a
   * database a user sends along with a bug report. */
  "CREATE TABLE meta ("
  "  key   TEXT PRIMARY KEY NOT NULL,"
  "  value TEXT NOT NULL"
  ") WITHOUT ROWID",
  "INSERT INTO meta (key, value) VALUES ('created_by_version', '" PACKAGE_VERSION "')",

  "CREATE TABLE targets ("
  "  id                 INTEGER PRIMARY KEY,"
  "  name               TEXT NOT NULL UNIQUE CHECK (length (name) > 0),"
  "  kind               TEXT NOT NULL CHECK (kind IN ('local', 'ssh')),"
  "  host               TEXT,"
  "  port               INTEGER NOT NULL DEFAULT 22 CHECK (port BETWEEN 1 AND 65535),"
  "  user_name          TEXT,"
  "  auth_method        TEXT NOT NULL DEFAULT 'agent'"
  "                     CHECK (auth_method IN ('agent', 'key', 'password', 'keyboard-interactive')),"
  "  identity_file      TEXT,"
  "  known_hosts_file   TEXT,"
  "  remote_base_folder TEXT,"
  "  setup_command      TEXT"
  ")",
  /* Jobs can always run on this computer, so a fresh workspace has it. */
  "INSERT INTO targets (name, kind) VALUES ('Local', 'local')",

  "CREATE TABLE projects ("
  "  id              INTEGER PRIMARY KEY,"
  "  name            TEXT NOT NULL UNIQUE CHECK (length (name) > 0),"
  "  local_folder    TEXT NOT NULL,"
  "  target_id       INTEGER REFERENCES targets (id) ON DELETE SET NULL,"
  "  remote_folder   TEXT,"
  "  upload_excludes TEXT NOT NULL DEFAULT '[]'"
  ")",
  "CREATE INDEX projects_by_target ON projects (target_id)",

  "CREATE TABLE run_configs ("
  "  id             INTEGER PRIMARY KEY,"
  "  project_id     INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,"
  "  position       INTEGER NOT NULL DEFAULT 0,"
  "  name           TEXT NOT NULL CHECK (length (name) > 0),"
  "  kind           TEXT NOT NULL CHECK (kind IN ('train', 'profile', 'infer', 'convert')),"
  "  command        TEXT NOT NULL,"
  "  arguments      TEXT NOT NULL DEFAULT '[]',"
  "  environment    TEXT NOT NULL DEFAULT '[]',"
  "  working_folder TEXT,"
  "  pull_folders   TEXT NOT NULL DEFAULT '[]',"
  "  UNIQUE (project_id, name)"
  ")",

  "CREATE TABLE recent_folders ("
  "  id        INTEGER PRIMARY KEY,"
  "  path      TEXT NOT NULL UNIQUE,"
  "  opened_at INTEGER NOT NULL"
  ")",
  "CREATE INDEX recent_folders_by_time ON recent_folders (opened_at)",

  /* kind is the id string of the finding kind, not an enum value, so the
   * detector can add kinds without a migration. */
  "CREATE TABLE runs ("
  "  id            INTEGER PRIMARY KEY,"
  "  root_folder   TEXT NOT NULL,"
  "  kind          TEXT NOT NULL,"
  "  relative_name TEXT NOT NULL,"
  "  path          TEXT NOT NULL,"
  "  tags          TEXT NOT NULL DEFAULT '[]',"
  "  last_seen     INTEGER NOT NULL,"
  "  UNIQUE (root_folder, path)"
  ")",
  "CREATE TABLE run_files ("
  "  run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
  "  path        TEXT NOT NULL,"
  "  size        INTEGER NOT NULL DEFAULT 0,"
  "  read_offset INTEGER NOT NULL DEFAULT 0,"
  "  PRIMARY KEY (run_id, path)"
  ") WITHOUT ROWID",

  /* The names are copied so the history still says where a job ran after
   * its target or project is renamed or removed. */
  "CREATE TABLE jobs ("
  "  id            INTEGER PRIMARY KEY,"
  "  command       TEXT NOT NULL,"
  "  target_id     INTEGER REFERENCES targets (id) ON DELETE SET NULL,"
  "  target_name   TEXT,"
  "  project_id    INTEGER REFERENCES projects (id) ON DELETE SET NULL,"
  "  project_name  TEXT,"
  "  started_at    INTEGER NOT NULL,"
  "  finished_at   INTEGER,"
  "  exit_code     INTEGER,"
  "  log_path      TEXT,"
  "  remote_folder TEXT,"
  "  state         TEXT NOT NULL"
  "                CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'lost'))"
  ")",
  "CREATE INDEX jobs_by_start ON jobs (started_at)",
  "CREATE INDEX jobs_by_target ON jobs (target_id)",
  "CREATE INDEX jobs_by_project ON jobs (project_id)",
  NULL
};

/* The folders of the Workspace, so the next start shows them at once from
 * the run index, and each run's finding details (a flat [key, value, ...]
 * list) so a run restored from the index reads as it did when scanned. */
static const char * const migration_2[] = {
  "CREATE TABLE open_folders ("
  "  path     TEXT PRIMARY KEY NOT NULL,"
  "  position INTEGER NOT NULL"
  ") WITHOUT ROWID",
  "ALTER TABLE runs ADD COLUMN details TEXT NOT NULL DEFAULT '[]'",
  NULL
};

/* A note and tags per run, written in the Lineage view, keyed by the
 * run's folder. */
static const char * const migration_3[] = {
  "CREATE TABLE run_notes ("
  "  path       TEXT PRIMARY KEY NOT NULL,"
  "  note       TEXT NOT NULL DEFAULT '',"
  "  tags       TEXT NOT NULL DEFAULT '[]',"
  "  updated_at INTEGER NOT NULL"
  ") WITHOUT ROWID",
  NULL
};

/* The tuner's studies and their trials, so a study survives a restart:
 * each trial's parameters as handed over, its point in the unit cube (the
 * Gaussian process's input), its state, value and why it failed. Trials
 * not yet finished are the pending suggestions a resumed study runs. */
static const char * const migration_4[] = {
  "CREATE TABLE tuner_studies ("
  "  id             INTEGER PRIMARY KEY,"
  "  config_path    TEXT NOT NULL,"
  "  config_text    TEXT NOT NULL,"
  "  target_name    TEXT NOT NULL,"
  "  project_folder TEXT NOT NULL,"
  "  seed           INTEGER NOT NULL,"
  "  max_trials     INTEGER NOT NULL,"
  "  parallel       INTEGER NOT NULL,"
  "  created_at     INTEGER NOT NULL,"
  "  state          TEXT NOT NULL"
  "                 CHECK (state IN ('running', 'paused', 'stopped', 'finished'))"
  ")",
  "CREATE INDEX tuner_studies_by_config ON tuner_studies (config_path, target_name)",
  "CREATE TABLE tuner_trials ("
  "  study_id    INTEGER NOT NULL REFERENCES tuner_studies (id) ON DELETE CASCADE,"
  "  number      INTEGER NOT NULL,"
  "  name        TEXT NOT NULL,"
  "  params      TEXT NOT NULL,"
  "  point       TEXT NOT NULL DEFAULT '[]',"
  "  state       TEXT NOT NULL"
  "              CHECK (state IN ('suggested', 'running', 'succeeded', 'failed', 'stopped')),"
  "  value       REAL,"
  "  reason      TEXT,"
  "  job_id      INTEGER REFERENCES jobs (id) ON DELETE SET NULL,"
  "  summary_dir TEXT,"
  "  started_at  INTEGER,"
  "  finished_at INTEGER,"
  "  PRIMARY KEY (study_id, number)"
  ") WITHOUT ROWID",
  NULL
};

/* How each job was started (its own process group, or Slurm), what the
 * backend calls it (Slurm's job id) and the backend's last state word and
 * reason, so a batch job is found and followed again after a restart. */
static const char * const migration_5[] = {
  "ALTER TABLE jobs ADD COLUMN backend TEXT NOT NULL DEFAULT 'direct'",
  "ALTER TABLE jobs ADD COLUMN backend_job_id TEXT",
  "ALTER TABLE jobs ADD COLUMN backend_state TEXT",
  "ALTER TABLE jobs ADD COLUMN backend_reason TEXT",
  NULL
};

/* A run configuration for MindX SDK apps, and per-configuration options
 * (one JSON object of groups: the profiler's choices, a MindX app's SDK
 * home and pipeline, how Slurm submits it). SQLite cannot change a CHECK,
 * so the table is rebuilt; nothing references run_configs, so dropping it
 * cascades nowhere. */
static const char * const migration_6[] = {
  "CREATE TABLE run_configs_v6 ("
  "  id             INTEGER PRIMARY KEY,"
  "  project_id     INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,"
  "  position       INTEGER NOT NULL DEFAULT 0,"
  "  name           TEXT NOT NULL CHECK (length (name) > 0),"
  "  kind           TEXT NOT NULL"
  "                 CHECK (kind IN ('train', 'profile', 'infer', 'convert', 'mindx')),"
  "  command        TEXT NOT NULL,"
  "  arguments      TEXT NOT NULL DEFAULT '[]',"
  "  environment    TEXT NOT NULL DEFAULT '[]',"
  "  working_folder TEXT,"
  "  pull_folders   TEXT NOT NULL DEFAULT '[]',"
  "  options        TEXT NOT NULL DEFAULT '{}',"
  "  UNIQUE (project_id, name)"
  ")",
  "INSERT INTO run_configs_v6 (id, project_id, position, name, kind, command, arguments,"
  "                            environment, working_folder, pull_folders)"
  "  SELECT id, project_id, position, name, kind, command, arguments,"
  "         environment, working_folder, pull_folders FROM run_configs",
  "DROP TABLE run_configs",
  "ALTER TABLE run_configs_v6 RENAME TO run_configs",
  NULL
};

/* What workflows made for a project (a converted .om), keyed by the
 * project's folder here so a folder that is not a saved project keeps
 * its outputs too; path is where the file is on the target. */
static const char * const migration_7[] = {
  "CREATE TABLE project_outputs ("
  "  id             INTEGER PRIMARY KEY,"
  "  project_folder TEXT NOT NULL,"
  "  target_name    TEXT NOT NULL,"
  "  kind           TEXT NOT NULL CHECK (length (kind) > 0),"
  "  path           TEXT NOT NULL,"
  "  source         TEXT,"
  "  created_at     INTEGER NOT NULL,"
  "  UNIQUE (project_folder, target_name, path)"
  ")",
  NULL
};

/* Why a job's recorded state differs from what its exit code says: the
 * workflow that ran it judged its output (a MindX app that exits 0 with
 * the SDK's errors in its log failed). */
static const char * const migration_8[] = {
  "ALTER TABLE jobs ADD COLUMN outcome_reason TEXT",
  NULL
};

/* A project without a remote folder was uploaded into
 * "<target's folder for projects>/sightline/<its folder's name>"; it now
 * goes into "<target's folder for projects>/<its folder's name>". Those
 * uploaded before keep their folder, written out: the same path, unless
 * the target had no folder for projects, which still means ~/sightline. */
static const char * const migration_9[] = {
  "UPDATE projects SET remote_folder ="
  "  (SELECT rtrim (t.remote_base_folder, '/') || '/sightline/' ||"
  "          replace (rtrim (projects.local_folder, '/'),"
  "                   rtrim (rtrim (projects.local_folder, '/'),"
  "                          replace (rtrim (projects.local_folder, '/'), '/', '')), '')"
  "   FROM targets t WHERE t.id = projects.target_id)"
  " WHERE (remote_folder IS NULL OR remote_folder = '')"
  "   AND EXISTS (SELECT 1 FROM targets t WHERE t.id = projects.target_id AND t.kind = 'ssh'"
  "               AND t.remote_base_folder IS NOT NULL AND t.remote_base_folder <> '')",
  NULL
};

/* A comparison was once addressed by its two paths joined by a newline,
 * and such an address could reach the recent folders: each of its paths
 * becomes a recent folder of its own (unless it is one already), opened
 * when the pair was, and the joined entry goes. */
static const char * const migration_10[] = {
  "WITH RECURSIVE parts (rest, part, opened_at) AS ("
  "  SELECT path || char (10), NULL, opened_at FROM recent_folders WHERE instr (path, char (10)) > 0"
  "  UNION ALL"
  "  SELECT substr (rest, instr (rest, char (10)) + 1), substr (rest, 1, instr (rest, char (10)) - 1), opened_at"
  "  FROM parts WHERE rest <> ''"
  ")"
  " INSERT OR IGNORE INTO recent_folders (path, opened_at)"
  "  SELECT part, opened_at FROM parts WHERE part IS NOT NULL AND part <> ''",
  "DELETE FROM recent_folders WHERE instr (path, char (10)) > 0",
  NULL
};

/* migrations[N - 1] takes a database from version N - 1 to version N. */
static const char * const * const migrations[] = {
  migration_1,
  migration_2,
  migration_3,
  migration_4,
  migration_5,
  migration_6,
  migration_7,
  migration_8,
  migration_9,
  migration_10,
};

guint
sl_workspace_schema_get_latest_version (void)
{
  return G_N_ELEMENTS (migrations);
}

/**
 * sl_workspace_schema_get_steps:
 * @version: the version the steps lead to, from 1 to the latest
 *
 * Returns: (transfer none) (array zero-terminated=1): the SQL statements
 */
const char * const *
sl_workspace_schema_get_steps (guint version)
{
  g_return_val_if_fail (version >= 1 && version <= G_N_ELEMENTS (migrations), NULL);
  return migrations[version - 1];
}
