/* sl-tuner-study.c
 *
 * The study runs in one thread (the caller's, or a worker's with
 * run_async); each trial runs in a thread of its own through
 * sl_remote_run_execute() and reports back through a queue, so waiting
 * for one trial never holds up the others. Everything the study knows is
 * written to the database before it acts on it: a suggestion is saved
 * before its trial starts, a result before the next suggestion, so a
 * restart at any moment resumes from what was saved. A trial that was
 * running, waiting or stopped when the study ended runs again from its
 * saved suggestion.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cache.h"
#include "sl-job-controller.h"
#include "sl-main-thread.h"
#include "sl-remote-run.h"
#include "sl-ssh-target.h"
#include "sl-folder-puller.h"
#include "sl-summary-reader.h"
#include "sl-target-shell.h"
#include "sl-transfer.h"
#include "sl-tuner-study.h"
#include "sl-workspace-store-tuner.h"

#define HYPER_CONFIG_MAX   100000
#define LOG_TAIL_MAX       1200
#define WAIT_SLICE_US      (200 * G_TIME_SPAN_MILLISECOND)

struct _SlTunerStudy
{
  GObject           parent_instance;

  SlTunerConfig    *config;
  char             *config_path;
  char             *config_text;
  SlTarget         *target;
  char             *project_dir;
  char             *store_path;
  guint             max_trials;
  guint             parallel;
  guint32           seed;
  gboolean          fresh;
  guint             n_initial;
  gboolean          random_only;

  GMainContext     *context;      /* where signals are emitted */
  gboolean          in_thread;
  SlJobController  *jobs;         /* follows the trials' jobs when set; used in context */
  GAsyncQueue      *started;      /* trials whose job started there, to be saved */
  GMutex            mutex;        /* guards what follows */
  GPtrArray        *trials;       /* SlTunerTrial, by number */
  GPtrArray        *running;      /* TrialRun */
  gint64            study_id;
  gboolean          resumed;
  gint              paused;       /* atomic */
  gint              stopping;     /* atomic */
};

G_DEFINE_FINAL_TYPE (SlTunerStudy, sl_tuner_study, G_TYPE_OBJECT)

enum {
  TRIAL_CHANGED,
  MESSAGE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* One trial in flight */
typedef struct {
  SlTunerStudy *study;
  guint         number;
  SlRemoteRun  *run;
  GString      *log_tail;
  GThread      *thread;
  gboolean      again;          /* an earlier attempt was cut short */
  gboolean      followed;       /* its job is the controller's */
  char         *command_line;
  guint         controller_job; /* its number there, once it started */
  gint64        earlier_job_id; /* its job, when the trial knew it */
  /* Filled by the trial's thread */
  GPtrArray    *notes;          /* messages, emitted once it ended */
  gboolean      ok;
  SlJobStatus   status;
  int           exit_code;
  GError       *error;
  char         *local_dir;
} TrialRun;

static void
trial_run_free (TrialRun *trial_run)
{
  if (trial_run->thread != NULL)
    g_thread_join (trial_run->thread);
  g_clear_object (&trial_run->run);
  g_free (trial_run->command_line);
  g_string_free (trial_run->log_tail, TRUE);
  g_clear_error (&trial_run->error);
  g_free (trial_run->local_dir);
  g_clear_pointer (&trial_run->notes, g_ptr_array_unref);
  g_free (trial_run);
}

static void
sl_tuner_study_finalize (GObject *object)
{
  SlTunerStudy *self = SL_TUNER_STUDY (object);

  g_clear_object (&self->config);
  g_clear_object (&self->target);
  g_free (self->config_path);
  g_free (self->config_text);
  g_free (self->project_dir);
  g_free (self->store_path);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->jobs);
  g_async_queue_unref (self->started);
  g_ptr_array_unref (self->trials);
  g_ptr_array_unref (self->running);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (sl_tuner_study_parent_class)->finalize (object);
}

static void
sl_tuner_study_class_init (SlTunerStudyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_tuner_study_finalize;

  /**
   * SlTunerStudy::trial-changed:
   * @number: the trial's number
   *
   * A trial was suggested, started or finished.
   */
  signals[TRIAL_CHANGED] = g_signal_new ("trial-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
sl_tuner_study_init (SlTunerStudy *self)
{
  g_mutex_init (&self->mutex);
  self->trials = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_tuner_trial_free);
  self->running = g_ptr_array_new ();
  self->started = g_async_queue_new ();
  self->max_trials = 10;
  self->parallel = 1;
  self->seed = 1;
}

/**
 * sl_tuner_study_new:
 * @config_path: the configuration file; with the target it names the study
 * @project_dir: the folder uploaded and run in
 * @store_path: the workspace database
 */
SlTunerStudy *
sl_tuner_study_new (SlTunerConfig *config,
                    const char    *config_path,
                    SlTarget      *target,
                    const char    *project_dir,
                    const char    *store_path)
{
  SlTunerStudy *self;

  g_return_val_if_fail (SL_IS_TUNER_CONFIG (config), NULL);
  g_return_val_if_fail (config_path != NULL && project_dir != NULL && store_path != NULL, NULL);
  g_return_val_if_fail (SL_IS_TARGET (target), NULL);

  self = g_object_new (SL_TYPE_TUNER_STUDY, NULL);
  self->config = g_object_ref (config);
  self->config_path = g_canonicalize_filename (config_path, NULL);
  self->config_text = sl_tuner_config_to_yaml (config);
  self->target = g_object_ref (target);
  self->project_dir = g_canonicalize_filename (project_dir, NULL);
  self->store_path = g_strdup (store_path);
  return self;
}

/**
 * sl_tuner_study_set_job_controller:
 * @jobs: (nullable): the controller that follows the trials' jobs, with
 *   every other job of the program, in the context
 *   sl_tuner_study_run_async() is called in; without one each trial
 *   follows its job by itself
 *
 * Each trial's job is then one of @jobs: it starts, streams its log and
 * ends in its signals, ending with the trial's verdict.
 */
void
sl_tuner_study_set_job_controller (SlTunerStudy    *self,
                                   SlJobController *jobs)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  g_return_if_fail (jobs == NULL || SL_IS_JOB_CONTROLLER (jobs));

  g_set_object (&self->jobs, jobs);
}

void
sl_tuner_study_set_max_trials (SlTunerStudy *self,
                               guint         max_trials)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  self->max_trials = MAX (max_trials, 1);
}

void
sl_tuner_study_set_parallel (SlTunerStudy *self,
                             guint         parallel)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  self->parallel = CLAMP (parallel, 1, 64);
}

void
sl_tuner_study_set_seed (SlTunerStudy *self,
                         guint32       seed)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  self->seed = seed;
}

/* Start a new study even when one of this configuration could resume. */
void
sl_tuner_study_set_fresh (SlTunerStudy *self,
                          gboolean      fresh)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  self->fresh = fresh;
}

void
sl_tuner_study_set_n_initial (SlTunerStudy *self,
                              guint         n_initial)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  self->n_initial = n_initial;
}

void
sl_tuner_study_set_random_only (SlTunerStudy *self,
                                gboolean      random_only)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  self->random_only = random_only;
}

SlTunerConfig *
sl_tuner_study_get_config (SlTunerStudy *self)
{
  g_return_val_if_fail (SL_IS_TUNER_STUDY (self), NULL);
  return self->config;
}

SlTarget *
sl_tuner_study_get_target (SlTunerStudy *self)
{
  g_return_val_if_fail (SL_IS_TUNER_STUDY (self), NULL);
  return self->target;
}

gint64
sl_tuner_study_get_id (SlTunerStudy *self)
{
  gint64 id;

  g_return_val_if_fail (SL_IS_TUNER_STUDY (self), 0);
  g_mutex_lock (&self->mutex);
  id = self->study_id;
  g_mutex_unlock (&self->mutex);
  return id;
}

gboolean
sl_tuner_study_get_resumed (SlTunerStudy *self)
{
  g_return_val_if_fail (SL_IS_TUNER_STUDY (self), FALSE);
  return self->resumed;
}

gboolean
sl_tuner_study_get_paused (SlTunerStudy *self)
{
  g_return_val_if_fail (SL_IS_TUNER_STUDY (self), FALSE);
  return g_atomic_int_get (&self->paused);
}

/**
 * sl_tuner_study_dup_trials:
 *
 * Returns: (transfer container) (element-type SlTunerTrial): copies of
 *   the trials as they are now, by number
 */
GPtrArray *
sl_tuner_study_dup_trials (SlTunerStudy *self)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_tuner_trial_free);

  g_return_val_if_fail (SL_IS_TUNER_STUDY (self), copy);

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->trials->len; i++)
    g_ptr_array_add (copy, sl_tuner_trial_copy (g_ptr_array_index (self->trials, i)));
  g_mutex_unlock (&self->mutex);
  return copy;
}

/**
 * sl_tuner_trials_find_best:
 *
 * Returns: (transfer none) (nullable): the trial with the best value
 */
const SlTunerTrial *
sl_tuner_trials_find_best (GPtrArray   *trials,
                           SlTunerGoal  goal)
{
  const SlTunerTrial *best = NULL;

  g_return_val_if_fail (trials != NULL, NULL);

  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);

      if (trial->state != SL_TUNER_TRIAL_SUCCEEDED || !trial->has_value)
        continue;
      if (best == NULL || (goal == SL_TUNER_GOAL_MAXIMIZE ? trial->value > best->value : trial->value < best->value))
        best = trial;
    }
  return best;
}

/* Pausing starts no new trial; the running ones go on. */
void
sl_tuner_study_pause (SlTunerStudy *self)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  g_atomic_int_set (&self->paused, 1);
}

void
sl_tuner_study_resume (SlTunerStudy *self)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));
  g_atomic_int_set (&self->paused, 0);
}

/* Stops the running trials (SIGTERM, then SIGKILL) and ends the study. */
void
sl_tuner_study_stop (SlTunerStudy *self)
{
  g_return_if_fail (SL_IS_TUNER_STUDY (self));

  g_atomic_int_set (&self->stopping, 1);
  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->running->len; i++)
    {
      TrialRun *trial_run = g_ptr_array_index (self->running, i);

      if (trial_run->run != NULL)
        sl_remote_run_request_stop (trial_run->run);
    }
  g_mutex_unlock (&self->mutex);
}

/* Signals, in the caller's context */

typedef struct {
  SlTunerStudy *self;
  guint         signal;
  guint         number;
  char         *text;
} Event;

static void
event_free (gpointer data)
{
  Event *event = data;

  g_object_unref (event->self);
  g_free (event->text);
  g_free (event);
}

static gboolean
event_emit_cb (gpointer data)
{
  Event *event = data;

  if (event->signal == TRIAL_CHANGED)
    g_signal_emit (event->self, signals[TRIAL_CHANGED], 0, event->number);
  else
    g_signal_emit (event->self, signals[MESSAGE], 0, event->text);
  return G_SOURCE_REMOVE;
}

static void
emit_event (SlTunerStudy *self,
            guint         signal,
            guint         number,
            const char   *text)
{
  Event *event = g_new0 (Event, 1);

  event->self = g_object_ref (self);
  event->signal = signal;
  event->number = number;
  event->text = g_strdup (text);
  if (!self->in_thread)
    {
      event_emit_cb (event);
      event_free (event);
      return;
    }
  sl_main_context_dispatch (self->context, event_emit_cb, event, event_free);
}

static void
emit_message (SlTunerStudy *self,
              const char   *format,
              ...) G_GNUC_PRINTF (2, 3);

static void
emit_message (SlTunerStudy *self,
              const char   *format,
              ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  emit_event (self, MESSAGE, 0, text);
}

/* Reading a trial's value */

static JsonNode *
find_member_ignoring_case (JsonObject *object,
                           const char *name)
{
  g_autoptr(GList) members = NULL;

  if (json_object_has_member (object, name))
    return json_object_get_member (object, name);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    if (g_ascii_strcasecmp (l->data, name) == 0)
      return json_object_get_member (object, l->data);
  return NULL;
}

static gboolean
number_from_metric (const char  *metric_json,
                    const char  *name,
                    double      *value,
                    GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;
  JsonNode *node;

  if (!json_parser_load_from_data (parser, metric_json, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The evaluation lineage’s metric is not a JSON object: %.80s"), metric_json);
      return FALSE;
    }
  object = json_node_get_object (json_parser_get_root (parser));
  node = find_member_ignoring_case (object, name);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_INT64))
    {
      g_autoptr(GList) members = json_object_get_members (object);
      g_autoptr(GString) names = g_string_new (NULL);

      for (GList *l = members; l != NULL; l = l->next)
        g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", (const char *)l->data);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The evaluation metric has no number “%s” (it has: %s)"), name,
                   names->len > 0 ? names->str : _("nothing"));
      return FALSE;
    }
  *value = json_node_get_value_type (node) == G_TYPE_DOUBLE ? json_node_get_double (node)
                                                            : (double)json_node_get_int (node);
  return TRUE;
}

/**
 * sl_tuner_read_trial_value:
 * @summary_dir: the trial's summary folder on this computer
 *
 * Reads the target from the lineage in @summary_dir: a metric from the
 * evaluation lineage's metric JSON, a system-defined value such as loss
 * from the train lineage (or, failing that, the user-defined info).
 */
gboolean
sl_tuner_read_trial_value (SlTunerConfig  *config,
                           const char     *summary_dir,
                           double         *value,
                           GError        **error)
{
  g_autoptr(SlSummaryReader) reader = NULL;
  const char *name;
  GPtrArray *runs;

  g_return_val_if_fail (SL_IS_TUNER_CONFIG (config), FALSE);
  g_return_val_if_fail (summary_dir != NULL && value != NULL, FALSE);

  name = sl_tuner_config_get_target_name (config);
  if (!g_file_test (summary_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The trial wrote no summary folder %s: expected its lineage there"), summary_dir);
      return FALSE;
    }
  reader = sl_summary_reader_new (summary_dir);
  if (!sl_summary_reader_update (reader, NULL, error))
    return FALSE;

  runs = sl_summary_reader_get_runs (reader);
  for (guint i = 0; i < runs->len; i++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, i);
      const char *text;

      if (sl_tuner_config_get_target_group (config) == SL_TUNER_GROUP_METRIC)
        {
          if ((text = sl_summary_run_get_lineage (run, SL_LINEAGE_EVAL, "metric")) != NULL)
            return number_from_metric (text, name, value, error);
          continue;
        }

      text = sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, name);
      if (text == NULL)
        text = sl_summary_run_get_lineage (run, SL_LINEAGE_USER, name);
      if (text != NULL)
        {
          char *end = NULL;

          *value = g_ascii_strtod (text, &end);
          if (end != NULL && *end == '\0' && isfinite (*value))
            return TRUE;
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The train lineage’s “%s” is not a number: %s"), name, text);
          return FALSE;
        }
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               sl_tuner_config_get_target_group (config) == SL_TUNER_GROUP_METRIC
               ? _("No evaluation lineage with a metric in %s: expected the trial to record “%s” there")
               : _("No train lineage with “%2$s” in %1$s"),
               summary_dir, name);
  return FALSE;
}

/* Running one trial */

static char *
dup_summary_dir (SlTunerStudy *self,
                 const char   *trial_name)
{
  const char *base = sl_tuner_config_get_summary_base_dir (self->config);
  g_autofree char *trimmed = g_strdup (base);
  gsize length = strlen (trimmed);

  while (length > 1 && trimmed[length - 1] == '/')
    trimmed[--length] = '\0';
  return g_strdup_printf ("%s/%s", trimmed, trial_name);
}

static char *
build_hyper_config (const char *params_json,
                    const char *summary_dir)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_parser_load_from_data (parser, params_json, -1, NULL);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "params");
  json_builder_add_value (builder, json_node_copy (json_parser_get_root (parser)));
  json_builder_set_member_name (builder, "summary_dir");
  json_builder_add_string_value (builder, summary_dir);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static void
log_tail_cb (SlRemoteRun *run,
             GBytes      *data,
             TrialRun    *trial_run)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (trial_run->log_tail, bytes, size);
  if (trial_run->log_tail->len > LOG_TAIL_MAX)
    g_string_erase (trial_run->log_tail, 0, trial_run->log_tail->len - LOG_TAIL_MAX);
}

static SlTunerTrial *trial_at (SlTunerStudy *self,
                               guint         number);

/* The job is known from its start: should Sightline stop before the
 * trial ends, the next run of the study finds the job the trial left. */
static void
job_started_cb (SlRemoteRun *run,
                gint64       job_id,
                const char  *remote_dir,
                const char  *log_path,
                TrialRun    *trial_run)
{
  SlTunerStudy *self = trial_run->study;
  g_autoptr(SlTunerTrial) copy = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GError) error = NULL;

  if (job_id <= 0)
    return;
  g_mutex_lock (&self->mutex);
  trial_at (self, trial_run->number)->job_id = job_id;
  copy = sl_tuner_trial_copy (trial_at (self, trial_run->number));
  g_mutex_unlock (&self->mutex);
  /* Followed by the controller, this is its context: the study's thread
   * saves it, off the context that may be a window's. */
  if (trial_run->followed)
    {
      g_async_queue_push (self->started, GUINT_TO_POINTER (trial_run->number));
      return;
    }
  if (!(store = sl_workspace_store_new_for_path (self->store_path, &error)) ||
      !sl_workspace_store_save_tuner_trial (store, copy, &error))
    g_ptr_array_add (trial_run->notes, g_strdup (error->message));
}

/* Where the trial's summaries are on this computer once it has ended. */
static char *
locate_local_dir (SlTunerStudy  *self,
                  SlRemoteRun   *run,
                  const char    *summary_dir,
                  GError       **error)
{
  g_auto(GStrv) pulled = NULL;
  g_autofree char *cache_dir = NULL;
  g_autofree char *local = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(SlPullResult) result = NULL;

  if (!SL_IS_SSH_TARGET (self->target))
    return g_path_is_absolute (summary_dir) ? g_strdup (summary_dir)
                                            : g_build_filename (self->project_dir, summary_dir, NULL);

  if (!g_path_is_absolute (summary_dir))
    {
      pulled = sl_remote_run_dup_local_pull_dirs (run);
      return g_strdup (pulled[0]);
    }

  /* An absolute summary_base_dir lies outside the project: pulled here. */
  cache_dir = sl_cache_dup_dir (NULL);
  local = sl_transfer_dup_cache_dir (cache_dir, sl_target_get_name (self->target), summary_dir, error);
  if (local == NULL)
    return NULL;
  shell = sl_target_shell_new_for_target (self->target);
  result = sl_folder_pull (shell, summary_dir, local, NULL, NULL, NULL, error);
  return result != NULL ? g_steal_pointer (&local) : NULL;
}

/* The jobs of earlier attempts of the trial, cut short when Sightline
 * stopped, may still run on the target and write into the trial's
 * folder: they are stopped, and seen to end, before the trial runs
 * again. They are the job the trial recorded and any other unfinished
 * job of the history started for the trial's folder (its train_<uuid>
 * name is in the job's command): Sightline may have been killed after
 * the job was recorded and started but before the trial knew it. */
static gboolean
end_earlier_attempts (TrialRun    *trial_run,
                      const char  *trial_name,
                      GError     **error)
{
  SlTunerStudy *self = trial_run->study;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) jobs = NULL;

  if (!(store = sl_workspace_store_new_for_path (self->store_path, error)) ||
      !(jobs = sl_workspace_store_list_jobs (store, 0, error)))
    return FALSE;

  for (guint i = 0; i < jobs->len; i++)
    {
      SlJobRecord *record = g_ptr_array_index (jobs, i);
      const char *command = sl_job_record_get_command (record);
      gint64 id = sl_job_record_get_id (record);
      g_autoptr(SlRemoteRun) earlier = NULL;
      g_autoptr(GError) stop_error = NULL;
      SlJobStatus status = SL_JOB_STATUS_LOST;

      if (sl_job_state_is_finished (sl_job_record_get_state (record)) || sl_job_record_get_log_path (record) == NULL)
        continue;
      if (id != trial_run->earlier_job_id && (command == NULL || strstr (command, trial_name) == NULL))
        continue;

      earlier = sl_remote_run_new_for_record (self->target, record);
      sl_remote_run_set_store_path (earlier, self->store_path);
      sl_remote_run_request_stop (earlier);
      if (!sl_remote_run_execute (earlier, &status, NULL, NULL, &stop_error) &&
          g_error_matches (stop_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          /* The job was recorded, but Sightline ended before it made the
           * job's folder on the target: the wrapper makes it before it
           * starts anything, so nothing of that attempt ran. */
          g_ptr_array_add (trial_run->notes,
                           g_strdup_printf (_("Trial %u runs again: the job %lld of its earlier attempt never started on the target"),
                                            trial_run->number, (long long)id));
          continue;
        }
      if (stop_error != NULL || (status != SL_JOB_STATUS_EXITED && status != SL_JOB_STATUS_LOST))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                       _("The job %lld of the trial’s earlier attempt may still be running, so the trial was not run "
                         "again into the same folder: %s"),
                       (long long)id, stop_error != NULL ? stop_error->message : _("it was not seen to end"));
          return FALSE;
        }
      g_ptr_array_add (trial_run->notes,
                       g_strdup_printf (_("Trial %u runs again: the job %lld of its earlier attempt was stopped first"),
                                        trial_run->number, (long long)id));
    }
  return TRUE;
}

static gpointer
trial_thread (gpointer data)
{
  TrialRun *trial_run = data;
  SlTunerStudy *self = trial_run->study;
  g_autofree char *summary_dir = NULL;
  g_autofree char *trial_name = NULL;
  g_autoptr(GMainContext) context = g_main_context_new ();

  /* The run's own events stay in this thread. */
  g_main_context_push_thread_default (context);

  g_mutex_lock (&self->mutex);
  trial_name = g_strdup (((SlTunerTrial *)g_ptr_array_index (self->trials, trial_run->number - 1))->name);
  summary_dir = dup_summary_dir (self, trial_name);
  g_mutex_unlock (&self->mutex);

  if (trial_run->again && !end_earlier_attempts (trial_run, trial_name, &trial_run->error))
    trial_run->ok = FALSE;
  else if (trial_run->followed)
    {
      /* TRANSLATORS: the Console's title for the job of a hyperparameter study's trial */
      g_autofree char *title = g_strdup_printf (_("Tuner trial %u"), trial_run->number);

      trial_run->ok = sl_job_controller_follow_run_sync (self->jobs, self->context, trial_run->run, title,
                                                         trial_run->command_line, &trial_run->controller_job,
                                                         &trial_run->status, &trial_run->exit_code,
                                                         &trial_run->error);
    }
  else
    trial_run->ok = sl_remote_run_execute (trial_run->run, &trial_run->status, &trial_run->exit_code, NULL,
                                           &trial_run->error);
  {
    g_auto(GStrv) aside = sl_remote_run_dup_set_aside_dirs (trial_run->run);

    for (guint i = 0; aside[i] != NULL; i++)
      g_ptr_array_add (trial_run->notes,
                       g_strdup_printf (_("Trial %u: what its earlier attempt wrote was moved aside to %s"),
                                        trial_run->number, aside[i]));
  }
  if (trial_run->ok)
    trial_run->local_dir = locate_local_dir (self, trial_run->run, summary_dir,
                                             trial_run->error == NULL ? &trial_run->error : NULL);

  g_main_context_pop_thread_default (context);
  return NULL;
}

typedef struct {
  GAsyncQueue *done;
  TrialRun    *trial_run;
} Launch;

static gpointer
launch_thread (gpointer data)
{
  Launch *launch = data;

  trial_thread (launch->trial_run);
  g_async_queue_push (launch->done, launch->trial_run);
  g_async_queue_unref (launch->done);
  g_free (launch);
  return NULL;
}

static SlTunerTrial *
trial_at (SlTunerStudy *self,
          guint         number)
{
  return g_ptr_array_index (self->trials, number - 1);
}

static gboolean
save_trial (SlTunerStudy     *self,
            SlWorkspaceStore *store,
            guint             number,
            GError          **error)
{
  g_autoptr(SlTunerTrial) copy = NULL;

  g_mutex_lock (&self->mutex);
  copy = sl_tuner_trial_copy (trial_at (self, number));
  g_mutex_unlock (&self->mutex);
  if (!sl_workspace_store_save_tuner_trial (store, copy, error))
    return FALSE;
  emit_event (self, TRIAL_CHANGED, number, NULL);
  return TRUE;
}

static void
start_trial (SlTunerStudy     *self,
             SlWorkspaceStore *store,
             GAsyncQueue      *done,
             guint             number)
{
  TrialRun *trial_run = g_new0 (TrialRun, 1);
  Launch *launch = g_new0 (Launch, 1);
  g_autofree char *summary_dir = NULL;
  g_autofree char *handoff = NULL;
  g_autofree char *env = NULL;
  g_autoptr(GError) error = NULL;
  SlTunerTrial *trial;
  gboolean again;
  const char *argv[6];

  g_mutex_lock (&self->mutex);
  trial = trial_at (self, number);
  summary_dir = dup_summary_dir (self, trial->name);
  handoff = build_hyper_config (trial->params, summary_dir);
  /* Started before: an attempt cut short by a stop or a crash. */
  again = trial->started_at != 0;
  trial_run->again = again;
  trial_run->earlier_job_id = again ? trial->job_id : 0;
  trial->state = SL_TUNER_TRIAL_RUNNING;
  trial->started_at = g_get_real_time ();
  trial->finished_at = 0;
  g_clear_pointer (&trial->reason, g_free);
  g_mutex_unlock (&self->mutex);

  if (strlen (handoff) > HYPER_CONFIG_MAX)
    g_warning ("MINDINSIGHT_HYPER_CONFIG of trial %u is longer than %d characters", number, HYPER_CONFIG_MAX);

  /* The command is a shell line, as MindInsight runs it. */
  env = g_strdup_printf ("MINDINSIGHT_HYPER_CONFIG=%s", handoff);
  argv[0] = "env";
  argv[1] = env;
  argv[2] = "sh";
  argv[3] = "-c";
  argv[4] = sl_tuner_config_get_command (self->config);
  argv[5] = NULL;

  trial_run->study = self;
  trial_run->number = number;
  trial_run->log_tail = g_string_new (NULL);
  trial_run->notes = g_ptr_array_new_with_free_func (g_free);
  trial_run->run = sl_remote_run_new (self->target, self->project_dir, argv);
  sl_remote_run_set_store_path (trial_run->run, self->store_path);
  /* The controller lives in the caller's context, which a run in a
   * worker leaves free to follow the trials there. */
  trial_run->followed = self->jobs != NULL && self->in_thread;
  trial_run->command_line = sl_job_controller_quote_argv (argv);
  if (SL_IS_SSH_TARGET (self->target) && !g_path_is_absolute (summary_dir))
    sl_remote_run_set_pull_dirs (trial_run->run, (const char * const []) { summary_dir, NULL });
  /* What an earlier attempt wrote is kept apart from this one's output. */
  if (again)
    sl_remote_run_set_fresh_dirs (trial_run->run, (const char * const []) { summary_dir, NULL });
  g_signal_connect (trial_run->run, "log", G_CALLBACK (log_tail_cb), trial_run);
  g_signal_connect (trial_run->run, "job-started", G_CALLBACK (job_started_cb), trial_run);

  if (!save_trial (self, store, number, &error))
    emit_message (self, "%s", error->message);
  emit_message (self, _("Trial %u started: %s"), number, trial->params);

  g_mutex_lock (&self->mutex);
  g_ptr_array_add (self->running, trial_run);
  g_mutex_unlock (&self->mutex);
  if (g_atomic_int_get (&self->stopping))
    sl_remote_run_request_stop (trial_run->run);

  launch->done = g_async_queue_ref (done);
  launch->trial_run = trial_run;
  trial_run->thread = g_thread_new ("sl-tuner-trial", launch_thread, launch);
}

static char *
describe_failure (TrialRun *trial_run)
{
  g_autofree char *tail = NULL;
  const char *why;
  char *reason;

  if (!trial_run->ok)
    return g_strdup (trial_run->error != NULL ? trial_run->error->message : _("The trial could not be run"));
  if (trial_run->status != SL_JOB_STATUS_EXITED)
    return g_strdup (_("Lost track of the trial’s job (killed, or the target restarted)"));

  why = sl_remote_run_explain_exit (trial_run->exit_code);
  tail = g_strstrip (g_strdup (trial_run->log_tail->str));
  if (strlen (tail) > 300)
    memmove (tail, tail + strlen (tail) - 300, 301);
  if (why != NULL)
    reason = g_strdup_printf (_("Exited with %d: %s"), trial_run->exit_code, why);
  else
    reason = g_strdup_printf (_("Exited with %d"), trial_run->exit_code);
  if (*tail != '\0')
    {
      char *with_tail = g_strdup_printf ("%s — %s", reason, tail);

      g_free (reason);
      reason = with_tail;
    }
  return reason;
}

typedef struct {
  SlJobController *jobs;
  guint            job;
  int              exit_code;
  char            *reason;
} JobEnd;

static void
job_end_free (gpointer data)
{
  JobEnd *end = data;

  g_object_unref (end->jobs);
  g_free (end->reason);
  g_free (end);
}

static gboolean
job_end_cb (gpointer data)
{
  JobEnd *end = data;

  sl_job_controller_end_job (end->jobs, end->job, end->exit_code, end->reason);
  return G_SOURCE_REMOVE;
}

/* The trial's job ends in the controller's signals with the trial's
 * verdict: failed, with why, when it gave no value. */
static void
end_controller_job (SlTunerStudy *self,
                    guint         job,
                    int           exit_code,
                    const char   *reason)
{
  JobEnd *end = g_new0 (JobEnd, 1);

  end->jobs = g_object_ref (self->jobs);
  end->job = job;
  end->exit_code = exit_code;
  end->reason = g_strdup (reason);
  sl_main_context_dispatch (self->context, job_end_cb, end, job_end_free);
}

/* Records how a trial ended; the value goes to the optimizer. */
static void
finish_trial (SlTunerStudy     *self,
              SlWorkspaceStore *store,
              SlBayesOptimizer *optimizer,
              TrialRun         *trial_run)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) save_error = NULL;
  g_autofree char *reason = NULL;
  SlTunerTrialState state;
  double value = NAN;
  SlTunerTrial *trial;

  for (guint i = 0; i < trial_run->notes->len; i++)
    emit_message (self, "%s", (const char *)g_ptr_array_index (trial_run->notes, i));

  if (trial_run->ok && trial_run->status == SL_JOB_STATUS_EXITED && trial_run->exit_code == 0 &&
      trial_run->local_dir != NULL)
    {
      if (sl_tuner_read_trial_value (self->config, trial_run->local_dir, &value, &error))
        state = SL_TUNER_TRIAL_SUCCEEDED;
      else
        {
          state = SL_TUNER_TRIAL_FAILED;
          reason = g_strdup (error->message);
        }
    }
  else if (g_atomic_int_get (&self->stopping))
    {
      state = SL_TUNER_TRIAL_STOPPED;
      reason = g_strdup (_("Stopped"));
    }
  else
    {
      state = SL_TUNER_TRIAL_FAILED;
      reason = describe_failure (trial_run);
    }

  g_mutex_lock (&self->mutex);
  g_ptr_array_remove (self->running, trial_run);
  trial = trial_at (self, trial_run->number);
  trial->state = state;
  trial->finished_at = g_get_real_time ();
  trial->job_id = trial_run->run != NULL ? sl_remote_run_get_job_id (trial_run->run) : 0;
  trial->has_value = state == SL_TUNER_TRIAL_SUCCEEDED;
  trial->value = trial->has_value ? value : 0;
  g_free (trial->reason);
  trial->reason = g_steal_pointer (&reason);
  g_free (trial->summary_dir);
  trial->summary_dir = g_strdup (trial_run->local_dir);
  if (state == SL_TUNER_TRIAL_SUCCEEDED)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree double *values = g_new (double, sl_tuner_config_get_n_parameters (self->config));

      if (json_parser_load_from_data (parser, trial->params, -1, NULL) &&
          sl_bayes_optimizer_values_from_json (optimizer, json_node_get_object (json_parser_get_root (parser)),
                                               values, NULL))
        sl_bayes_optimizer_add_observation (optimizer, values, value);
    }
  g_mutex_unlock (&self->mutex);

  if (trial_run->controller_job != 0)
    end_controller_job (self, trial_run->controller_job, state == SL_TUNER_TRIAL_SUCCEEDED ? 0 : -1,
                        state == SL_TUNER_TRIAL_SUCCEEDED ? NULL : trial->reason);
  if (state == SL_TUNER_TRIAL_SUCCEEDED)
    emit_message (self, _("Trial %u: %s = %g"), trial_run->number, sl_tuner_config_get_target_name (self->config), value);
  else
    emit_message (self, _("Trial %u did not give a value: %s"), trial_run->number, trial->reason);

  if (!save_trial (self, store, trial_run->number, &save_error))
    emit_message (self, "%s", save_error->message);
  trial_run_free (trial_run);
}

/* Suggestions */

static char *
point_to_json (const double *point,
               guint         n)
{
  GString *out = g_string_new ("[");
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint k = 0; k < n; k++)
    {
      if (k > 0)
        g_string_append_c (out, ',');
      g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, point[k]));
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

/* The values of trials that have no result yet, and of those that
 * failed: the liar's set, all at the worst value seen, so the batch
 * spreads out and the search steers away from settings that fail. */
static double *
collect_pending (SlTunerStudy     *self,
                 SlBayesOptimizer *optimizer,
                 guint            *n_pending)
{
  guint n_params = sl_tuner_config_get_n_parameters (self->config);
  GArray *pending = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *values = g_new (double, n_params);

  *n_pending = 0;
  for (guint i = 0; i < self->trials->len; i++)
    {
      SlTunerTrial *trial = g_ptr_array_index (self->trials, i);
      g_autoptr(JsonParser) parser = NULL;

      if (sl_tuner_trial_is_finished (trial) && trial->state != SL_TUNER_TRIAL_FAILED)
        continue;
      parser = json_parser_new ();
      if (json_parser_load_from_data (parser, trial->params, -1, NULL) &&
          JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) &&
          sl_bayes_optimizer_values_from_json (optimizer, json_node_get_object (json_parser_get_root (parser)),
                                               values, NULL))
        {
          g_array_append_vals (pending, values, n_params);
          (*n_pending)++;
        }
    }
  return (double *)g_array_free (pending, FALSE);
}

/* The shortest text that reads back as the same double, as Python
 * prints it: 0.0481, not json-glib's 0.048099999999999997. */
static void
append_shortest (GString *out,
                 double   value)
{
  char buffer[64];

  for (int digits = 15; digits <= 17; digits++)
    {
      g_ascii_formatd (buffer, sizeof buffer, digits == 15 ? "%.15g" : digits == 16 ? "%.16g" : "%.17g", value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  g_string_append (out, buffer);
  /* Keep it a float for HyperConfig: 2 would read back as an int. */
  if (strpbrk (buffer, ".eEn") == NULL)
    g_string_append (out, ".0");
}

static char *
params_to_text (JsonObject *params)
{
  g_autoptr(GList) members = json_object_get_members (params);
  GString *out = g_string_new ("{");

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (params, l->data);
      g_autoptr(JsonNode) key = json_node_new (JSON_NODE_VALUE);
      g_autofree char *key_text = NULL;

      json_node_set_string (key, l->data);
      key_text = json_to_string (key, FALSE);
      g_string_append_printf (out, "%s%s: ", l != members ? ", " : "", key_text);
      if (json_node_get_value_type (value) == G_TYPE_DOUBLE)
        append_shortest (out, json_node_get_double (value));
      else
        {
          g_autofree char *text = json_to_string (value, FALSE);

          g_string_append (out, text);
        }
    }
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

static guint
add_suggestion (SlTunerStudy     *self,
                SlWorkspaceStore *store,
                SlBayesOptimizer *optimizer)
{
  guint n_params = sl_tuner_config_get_n_parameters (self->config);
  g_autofree double *values = g_new (double, n_params);
  g_autofree double *point = g_new (double, sl_bayes_optimizer_get_n_dims (optimizer));
  g_autofree double *pending = NULL;
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *uuid = g_uuid_string_random ();
  g_autoptr(GError) error = NULL;
  SlTunerTrial *trial = sl_tuner_trial_new ();
  guint n_pending = 0;
  guint number;

  g_mutex_lock (&self->mutex);
  pending = collect_pending (self, optimizer, &n_pending);
  sl_bayes_optimizer_suggest (optimizer, pending, n_pending, values);
  sl_bayes_optimizer_encode (optimizer, values, point);
  params = sl_bayes_optimizer_values_to_json (optimizer, values);
  json_node_set_object (node, params);

  number = self->trials->len + 1;
  trial->study_id = self->study_id;
  trial->number = number;
  /* MindInsight's train_<uuid> folders, without the dashes. */
  {
    g_autoptr(GString) compact = g_string_new ("train_");

    for (const char *p = uuid; *p != '\0'; p++)
      if (*p != '-')
        g_string_append_c (compact, *p);
    trial->name = g_string_free (g_steal_pointer (&compact), FALSE);
  }
  g_free (trial->params);
  trial->params = params_to_text (params);
  g_free (trial->point);
  trial->point = point_to_json (point, sl_bayes_optimizer_get_n_dims (optimizer));
  trial->state = SL_TUNER_TRIAL_SUGGESTED;
  g_ptr_array_add (self->trials, trial);
  g_mutex_unlock (&self->mutex);

  if (!save_trial (self, store, number, &error))
    emit_message (self, "%s", error->message);
  return number;
}

/* Opening or resuming */

static gboolean
open_study (SlTunerStudy      *self,
            SlWorkspaceStore  *store,
            SlTunerStudyRow  **row_out,
            GError           **error)
{
  g_autoptr(SlTunerStudyRow) row = NULL;
  g_autoptr(GPtrArray) trials = NULL;
  const char *target_name = sl_target_get_name (self->target);

  if (!self->fresh)
    {
      row = sl_workspace_store_find_tuner_study (store, self->config_path, self->config_text, target_name, error);
      if (row == NULL && error != NULL && *error != NULL)
        return FALSE;
    }

  if (row == NULL)
    {
      row = g_new0 (SlTunerStudyRow, 1);
      row->config_path = g_strdup (self->config_path);
      row->config_text = g_strdup (self->config_text);
      row->target_name = g_strdup (target_name);
      row->project_folder = g_strdup (self->project_dir);
      row->seed = self->seed;
      row->max_trials = self->max_trials;
      row->parallel = self->parallel;
      if (!sl_workspace_store_add_tuner_study (store, row, error))
        return FALSE;
      trials = g_ptr_array_new ();
    }
  else
    {
      self->resumed = TRUE;
      row->max_trials = self->max_trials;
      row->parallel = self->parallel;
      if (!(trials = sl_workspace_store_list_tuner_trials (store, row->id, error)))
        return FALSE;
    }

  g_free (row->state);
  row->state = g_strdup ("running");
  if (!sl_workspace_store_update_tuner_study (store, row, error))
    return FALSE;

  g_mutex_lock (&self->mutex);
  self->study_id = row->id;
  for (guint i = 0; i < trials->len; i++)
    {
      SlTunerTrial *trial = g_ptr_array_steal_index (trials, i--);

      /* What was running when Sightline stopped, or was stopped, runs again. */
      if (!sl_tuner_trial_is_finished (trial) || trial->state == SL_TUNER_TRIAL_STOPPED)
        {
          trial->state = SL_TUNER_TRIAL_SUGGESTED;
          g_clear_pointer (&trial->reason, g_free);
        }
      trial->number = self->trials->len + 1;
      g_ptr_array_add (self->trials, trial);
    }
  g_mutex_unlock (&self->mutex);

  if (self->resumed)
    emit_message (self, _("Resuming study %lld with %u trials"), (long long)row->id, self->trials->len);
  *row_out = g_steal_pointer (&row);
  return TRUE;
}

/* The optimizer of a study, with what its trials found. A resumed study
 * draws other random numbers than its first run did. */
static SlBayesOptimizer *
create_optimizer (SlTunerStudy *self)
{
  guint n_params = sl_tuner_config_get_n_parameters (self->config);
  g_autofree double *values = g_new (double, n_params);
  SlBayesOptimizer *optimizer;

  g_mutex_lock (&self->mutex);
  optimizer = sl_bayes_optimizer_new (self->config, self->seed + 7919u * self->trials->len);
  if (self->n_initial > 0)
    sl_bayes_optimizer_set_n_initial (optimizer, self->n_initial);
  sl_bayes_optimizer_set_random_only (optimizer, self->random_only);
  for (guint i = 0; i < self->trials->len; i++)
    {
      SlTunerTrial *trial = g_ptr_array_index (self->trials, i);
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (trial->state == SL_TUNER_TRIAL_SUCCEEDED && trial->has_value &&
          json_parser_load_from_data (parser, trial->params, -1, NULL) &&
          JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) &&
          sl_bayes_optimizer_values_from_json (optimizer, json_node_get_object (json_parser_get_root (parser)),
                                               values, NULL))
        sl_bayes_optimizer_add_observation (optimizer, values, trial->value);
    }
  g_mutex_unlock (&self->mutex);
  return optimizer;
}

static guint
count_in_state (SlTunerStudy *self,
                gboolean      finished)
{
  guint count = 0;

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->trials->len; i++)
    if (sl_tuner_trial_is_finished (g_ptr_array_index (self->trials, i)) == finished)
      count++;
  g_mutex_unlock (&self->mutex);
  return count;
}

/* The first trial waiting to start, or 0. */
static guint
next_waiting (SlTunerStudy *self)
{
  guint number = 0;

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->trials->len && number == 0; i++)
    if (((SlTunerTrial *)g_ptr_array_index (self->trials, i))->state == SL_TUNER_TRIAL_SUGGESTED)
      number = i + 1;
  g_mutex_unlock (&self->mutex);
  return number;
}

static guint
n_running (SlTunerStudy *self)
{
  guint n;

  g_mutex_lock (&self->mutex);
  n = self->running->len;
  g_mutex_unlock (&self->mutex);
  return n;
}

/* The trials whose job started in the controller's context, with it. */
static void
save_started (SlTunerStudy     *self,
              SlWorkspaceStore *store)
{
  gpointer number;

  while ((number = g_async_queue_try_pop (self->started)) != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!save_trial (self, store, GPOINTER_TO_UINT (number), &error))
        emit_message (self, "%s", error->message);
    }
}

/**
 * sl_tuner_study_run:
 *
 * Runs trials until max_trials have finished (successfully or not), or
 * until the study is stopped. Blocks; the signals are emitted in the
 * calling thread.
 */
gboolean
sl_tuner_study_run (SlTunerStudy  *self,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlBayesOptimizer) optimizer = NULL;
  g_autoptr(SlTunerStudyRow) row = NULL;
  g_autoptr(GAsyncQueue) done = g_async_queue_new ();
  g_autoptr(GError) save_error = NULL;

  g_return_val_if_fail (SL_IS_TUNER_STUDY (self), FALSE);

  if (self->context == NULL)
    self->context = g_main_context_ref_thread_default ();
  if (!(store = sl_workspace_store_new_for_path (self->store_path, error)))
    return FALSE;

  if (!open_study (self, store, &row, error))
    return FALSE;
  optimizer = create_optimizer (self);

  for (;;)
    {
      gboolean stopping = g_atomic_int_get (&self->stopping) || g_cancellable_is_cancelled (cancellable);
      guint finished = count_in_state (self, TRUE);
      guint running = n_running (self);
      TrialRun *ended;

      if (stopping && running == 0)
        break;
      if (!stopping && finished >= self->max_trials && running == 0)
        break;
      if (g_cancellable_is_cancelled (cancellable) && !g_atomic_int_get (&self->stopping))
        sl_tuner_study_stop (self);

      while (!stopping && !g_atomic_int_get (&self->paused) && n_running (self) < self->parallel &&
             finished + n_running (self) < self->max_trials)
        {
          guint number = next_waiting (self);

          if (number == 0)
            number = add_suggestion (self, store, optimizer);
          start_trial (self, store, done, number);
        }

      ended = g_async_queue_timeout_pop (done, WAIT_SLICE_US);
      save_started (self, store);
      if (ended != NULL)
        finish_trial (self, store, optimizer, ended);
    }

  g_free (row->state);
  row->state = g_strdup (g_atomic_int_get (&self->stopping) ? "stopped" : "finished");
  if (!sl_workspace_store_update_tuner_study (store, row, &save_error))
    emit_message (self, "%s", save_error->message);
  return TRUE;
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  GError *error = NULL;

  if (sl_tuner_study_run (source_object, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_tuner_study_run_async:
 *
 * sl_tuner_study_run() in a worker; the signals are emitted in the
 * calling thread's main context.
 */
void
sl_tuner_study_run_async (SlTunerStudy        *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_TUNER_STUDY (self));

  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  self->in_thread = TRUE;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_tuner_study_run_async);
  g_task_run_in_thread (task, run_thread);
}

gboolean
sl_tuner_study_run_finish (SlTunerStudy  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
