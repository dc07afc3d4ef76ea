/* test-workflow-base.c: SlWorkflow with a workflow of three stages
 *
 * The stages run on the workflow's worker; every event (stage, log,
 * message, problem, end) must reach the caller in the main context it
 * started the run from, in order, and never on the worker, even while
 * that context is free. A cancel stops the stages; the problems found
 * are kept, in order, and the next run starts afresh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-local-target.h"
#include "sl-workflow-private.h"

/* A workflow whose second stage may wait for a cancel. */

enum {
  STAGE_IDLE,
  STAGE_FIRST,
  STAGE_WAITING,
  STAGE_LAST,
  STAGE_DONE,
};

#define TEST_TYPE_WORKFLOW (test_workflow_get_type ())
G_DECLARE_FINAL_TYPE (TestWorkflow, test_workflow, TEST, WORKFLOW, SlWorkflow)

struct _TestWorkflow
{
  SlWorkflow  parent_instance;

  gboolean    wait_for_cancel;
  gboolean    add_error;
  GMutex      mutex;
  GCond       cond;
  gboolean    stages_ended;   /* under mutex */
  gboolean    cancelled;      /* under mutex */
  gint        reached_last;   /* atomic */
  gint        n_runs;         /* atomic */
  GThread    *stage_thread;
};

G_DEFINE_FINAL_TYPE (TestWorkflow, test_workflow, SL_TYPE_WORKFLOW)

static void
cancelled_cb (GCancellable *cancellable,
              TestWorkflow *self)
{
  g_mutex_lock (&self->mutex);
  self->cancelled = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

static void
end_stages (TestWorkflow *self)
{
  g_mutex_lock (&self->mutex);
  self->stages_ended = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

static gboolean
test_workflow_run_stages (SlWorkflow    *workflow,
                          GCancellable  *cancellable,
                          GError       **error)
{
  TestWorkflow *self = TEST_WORKFLOW (workflow);
  g_autoptr(GBytes) line = g_bytes_new_static ("a line\n", 7);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);

  g_atomic_int_inc (&self->n_runs);
  self->stage_thread = g_thread_self ();
  sl_workflow_set_stage (workflow, STAGE_FIRST);
  sl_workflow_emit_message (workflow, "checking");
  sl_workflow_add_problem (workflow, sl_problem_new (SL_SEVERITY_WARNING, "test", NULL, -1, "first"), "a hint");
  g_ptr_array_add (found, sl_problem_new (SL_SEVERITY_INFO, "test", NULL, -1, "second"));
  if (self->add_error)
    g_ptr_array_add (found, sl_problem_new (SL_SEVERITY_ERROR, "test", NULL, -1, "third"));
  sl_workflow_add_problems (workflow, found);
  sl_workflow_append_log (workflow, line);

  sl_workflow_set_stage (workflow, STAGE_WAITING);
  if (self->wait_for_cancel)
    {
      gulong id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self, NULL);

      g_mutex_lock (&self->mutex);
      while (!self->cancelled)
        g_cond_wait (&self->cond, &self->mutex);
      g_mutex_unlock (&self->mutex);
      g_cancellable_disconnect (cancellable, id);
    }
  if (sl_workflow_set_error_if_interrupted_before (workflow, cancellable, error))
    {
      end_stages (self);
      return FALSE;
    }

  g_atomic_int_set (&self->reached_last, TRUE);
  sl_workflow_set_stage (workflow, STAGE_LAST);
  end_stages (self);
  return TRUE;
}

static void
test_workflow_finalize (GObject *object)
{
  TestWorkflow *self = TEST_WORKFLOW (object);

  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (test_workflow_parent_class)->finalize (object);
}

static void
test_workflow_class_init (TestWorkflowClass *klass)
{
  SL_WORKFLOW_CLASS (klass)->run_stages = test_workflow_run_stages;
  SL_WORKFLOW_CLASS (klass)->done_stage = STAGE_DONE;
  G_OBJECT_CLASS (klass)->finalize = test_workflow_finalize;
}

static void
test_workflow_init (TestWorkflow *self)
{
  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
}

static TestWorkflow *
test_workflow_new (void)
{
  g_autoptr(SlTarget) target = sl_local_target_new ();

  return g_object_new (TEST_TYPE_WORKFLOW, "target", target, "project-dir", "/nonexistent", NULL);
}

/* What the caller saw, and where. */

typedef struct {
  GMainContext *context;   /* where every event must come */
  GThread      *thread;
  GString      *events;
  GCancellable *cancellable;
  gboolean      cancel_when_waiting;
  gboolean      done;
  gboolean      ok;
  GError       *error;
} Caller;

static void
assert_in_caller (Caller *caller)
{
  g_assert_true (g_thread_self () == caller->thread);
  g_assert_true (g_main_context_is_owner (caller->context));
}

static void
stage_cb (SlWorkflow *workflow,
          GParamSpec *pspec,
          Caller     *caller)
{
  int stage = sl_workflow_get_stage (workflow);

  assert_in_caller (caller);
  g_string_append_printf (caller->events, "stage %d;", stage);
  if (stage == STAGE_WAITING && caller->cancel_when_waiting)
    g_cancellable_cancel (caller->cancellable);
}

static void
log_cb (SlWorkflow *workflow,
        GBytes     *data,
        Caller     *caller)
{
  gsize size = 0;
  const char *text = g_bytes_get_data (data, &size);

  assert_in_caller (caller);
  g_string_append (caller->events, "log ");
  g_string_append_len (caller->events, text, size - 1);
  g_string_append (caller->events, ";");
}

static void
message_cb (SlWorkflow *workflow,
            const char *text,
            Caller     *caller)
{
  assert_in_caller (caller);
  g_string_append_printf (caller->events, "message %s;", text);
}

static void
problem_cb (SlWorkflow *workflow,
            SlProblem  *problem,
            Caller     *caller)
{
  assert_in_caller (caller);
  g_string_append_printf (caller->events, "problem %s;", sl_problem_get_message (problem));
}

static void
finished_cb (SlWorkflow *workflow,
             Caller     *caller)
{
  assert_in_caller (caller);
  g_assert_false (sl_workflow_is_running (workflow));
  g_string_append (caller->events, "finished;");
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Caller *caller = data;

  assert_in_caller (caller);
  caller->ok = sl_workflow_run_finish (SL_WORKFLOW (source), result, &caller->error);
  caller->done = TRUE;
  g_string_append (caller->events, "done;");
}

static void
connect_caller (TestWorkflow *workflow,
                Caller       *caller)
{
  caller->thread = g_thread_self ();
  caller->events = g_string_new (NULL);
  g_signal_connect (workflow, "notify::stage", G_CALLBACK (stage_cb), caller);
  g_signal_connect (workflow, "log", G_CALLBACK (log_cb), caller);
  g_signal_connect (workflow, "message", G_CALLBACK (message_cb), caller);
  g_signal_connect (workflow, "problem", G_CALLBACK (problem_cb), caller);
  g_signal_connect (workflow, "finished", G_CALLBACK (finished_cb), caller);
}

static void
caller_clear (Caller *caller)
{
  g_string_free (caller->events, TRUE);
  g_clear_error (&caller->error);
}

/* Run from a context of the caller's own (not the global default one):
 * nothing is delivered while the stages run, though that context is free
 * for the worker to take, and then everything comes there, in order,
 * before the callback. */
static void
test_events_arrive_in_callers_context (void)
{
  g_autoptr(TestWorkflow) workflow = test_workflow_new ();
  g_autoptr(GMainContext) context = g_main_context_new ();
  Caller caller = { context };

  connect_caller (workflow, &caller);
  g_main_context_push_thread_default (context);
  sl_workflow_run_async (SL_WORKFLOW (workflow), NULL, done_cb, &caller);
  g_assert_true (sl_workflow_is_running (SL_WORKFLOW (workflow)));

  g_mutex_lock (&workflow->mutex);
  while (!workflow->stages_ended)
    g_cond_wait (&workflow->cond, &workflow->mutex);
  g_mutex_unlock (&workflow->mutex);
  g_assert_true (workflow->stage_thread != g_thread_self ());
  g_assert_cmpstr (caller.events->str, ==, "");

  while (!caller.done)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  g_assert_no_error (caller.error);
  g_assert_true (caller.ok);
  g_assert_cmpstr (caller.events->str, ==,
                   "stage 1;message checking;problem first;problem second;log a line;"
                   "stage 2;stage 3;stage 4;finished;done;");
  g_assert_cmpint (sl_workflow_get_stage (SL_WORKFLOW (workflow)), ==, STAGE_DONE);
  g_assert_false (sl_workflow_is_running (SL_WORKFLOW (workflow)));
  /* Nothing went to the global default context. */
  g_assert_false (g_main_context_pending (NULL));
  caller_clear (&caller);
}

/* A cancel sent when the waiting stage is heard stops the stages there:
 * the last never runs, the run ends cancelled, what was found is kept. */
static void
test_cancel_stops_the_stages (void)
{
  g_autoptr(TestWorkflow) workflow = test_workflow_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Caller caller = { g_main_context_default () };

  workflow->wait_for_cancel = TRUE;
  caller.cancellable = cancellable;
  caller.cancel_when_waiting = TRUE;
  connect_caller (workflow, &caller);
  sl_workflow_run_async (SL_WORKFLOW (workflow), cancellable, done_cb, &caller);
  while (!caller.done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (caller.ok);
  g_assert_error (caller.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (g_atomic_int_get (&workflow->reached_last));
  g_assert_cmpstr (caller.events->str, ==,
                   "stage 1;message checking;problem first;problem second;log a line;"
                   "stage 2;stage 4;finished;done;");
  g_assert_cmpuint (sl_workflow_get_problems (SL_WORKFLOW (workflow))->len, ==, 2);
  caller_clear (&caller);
}

/* Cancelled before it started: no stage runs at all. */
static void
test_cancel_before_start_runs_nothing (void)
{
  g_autoptr(TestWorkflow) workflow = test_workflow_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Caller caller = { g_main_context_default () };

  connect_caller (workflow, &caller);
  g_cancellable_cancel (cancellable);
  sl_workflow_run_async (SL_WORKFLOW (workflow), cancellable, done_cb, &caller);
  while (!caller.done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (caller.ok);
  g_assert_error (caller.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_atomic_int_get (&workflow->n_runs), ==, 0);
  g_assert_cmpstr (caller.events->str, ==, "stage 4;finished;done;");
  caller_clear (&caller);
}

/* Run synchronously: the events come at once, in the calling thread;
 * problems are kept in order with their hints, an error among them makes
 * the verdict, and the next run starts from none. */
static void
test_problems_are_collected (void)
{
  g_autoptr(TestWorkflow) workflow = test_workflow_new ();
  g_autoptr(GError) error = NULL;
  Caller caller = { g_main_context_default () };
  GPtrArray *problems;

  connect_caller (workflow, &caller);
  workflow->add_error = TRUE;
  g_assert_true (sl_workflow_run (SL_WORKFLOW (workflow), NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (caller.events->str, ==,
                   "stage 1;message checking;problem first;problem second;problem third;log a line;"
                   "stage 2;stage 3;stage 4;finished;");
  problems = sl_workflow_get_problems (SL_WORKFLOW (workflow));
  g_assert_cmpuint (problems->len, ==, 3);
  g_assert_cmpstr (sl_problem_get_message (g_ptr_array_index (problems, 0)), ==, "first");
  g_assert_cmpstr (sl_problem_get_hint (g_ptr_array_index (problems, 0)), ==, "a hint");
  g_assert_cmpstr (sl_problem_get_message (g_ptr_array_index (problems, 2)), ==, "third");
  g_assert_cmpuint (sl_workflow_count_errors (SL_WORKFLOW (workflow)), ==, 1);
  g_assert_false (sl_workflow_succeeded (SL_WORKFLOW (workflow)));
  g_assert_cmpstr (sl_workflow_get_log (SL_WORKFLOW (workflow))->str, ==, "a line\n");
  g_assert_cmpuint (sl_workflow_count_log_lines (SL_WORKFLOW (workflow)), ==, 1);

  workflow->add_error = FALSE;
  g_assert_true (sl_workflow_run (SL_WORKFLOW (workflow), NULL, &error));
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_true (sl_workflow_succeeded (SL_WORKFLOW (workflow)));
  g_assert_cmpstr (sl_workflow_get_log (SL_WORKFLOW (workflow))->str, ==, "a line\n");
  caller_clear (&caller);
}

/* An empty setting is none. */
static void
test_settings (void)
{
  g_autoptr(TestWorkflow) workflow = test_workflow_new ();
  SlWorkflow *base = SL_WORKFLOW (workflow);
  g_autofree char *source = NULL;

  sl_workflow_set_env_script (base, "");
  g_assert_null (sl_workflow_get_env_script (base));
  g_assert_null (sl_workflow_dup_source_line (base));
  sl_workflow_set_env_script (base, "/opt/my env/set_env.sh");
  source = sl_workflow_dup_source_line (base);
  g_assert_cmpstr (source, ==, ". '/opt/my env/set_env.sh'");
  sl_workflow_set_remote_dir (base, "");
  g_assert_null (sl_workflow_get_remote_dir (base));
  g_assert_cmpstr (sl_workflow_get_project_dir (base), ==, "/nonexistent");
  g_assert_true (SL_IS_LOCAL_TARGET (sl_workflow_get_target (base)));
  g_assert_cmpint (sl_workflow_get_exit_code (base), ==, -1);
  g_assert_cmpint (sl_workflow_get_job_id (base), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/workflow/events-in-callers-context", test_events_arrive_in_callers_context);
  g_test_add_func ("/workflow/cancel-stops-the-stages", test_cancel_stops_the_stages);
  g_test_add_func ("/workflow/cancel-before-start", test_cancel_before_start_runs_nothing);
  g_test_add_func ("/workflow/problems-collected", test_problems_are_collected);
  g_test_add_func ("/workflow/settings", test_settings);
  return g_test_run ();
}
