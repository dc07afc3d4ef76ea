/* test-profile-run.c: the Profile dialog running its workflow on this computer
 *
 * The stand-in msprof, npu-smi, df and Python 2 of
 * tests/integration/workflow-tools go on the PATH through environment
 * scripts, as the toolkit's set_env.sh would put the real tools. Start
 * in the dialog shows each stage; Cancel stops the job; a raw-only
 * PROF_ folder is exported, pulled and opened as a Profile; the
 * preflight's catches are listed in the dialog with their fixes; a
 * profile run beside a Run job streams into a Console log view of its
 * own. Light
 * and dark screenshots of the dialog running and failed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"

#include "sl-application.h"
#include "sl-console-panel.h"
#include "sl-document-registry.h"
#include "sl-profile-dialog.h"
#include "sl-window.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;
static char *toolkit_bin;
static char *bad_bin;
static char *full_bin;
static char *project;

static gboolean
idle_for_a_moment (gpointer data)
{
  return g_get_monotonic_time () > *(gint64 *)data;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;

  wait_until (idle_for_a_moment, &until, 1000);
}

static GObject *
child (gpointer    dialog,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (dialog), SL_TYPE_PROFILE_DIALOG, name);

  g_assert_nonnull (object);
  return object;
}

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
install_tool (const char *bin,
              const char *name,
              const char *as)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");
  g_autofree char *source = g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", name, NULL);
  g_autofree char *link = g_build_filename (bin, as ? as : name, NULL);

  g_assert_cmpint (symlink (source, link), ==, 0);
}

static void
write_project_file (const char *name,
                    const char *text)
{
  g_autofree char *path = g_build_filename (project, name, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  write_file (path, text);
}

/* Small torch_npu and mindspore packages in the project, standing in
 * for the frameworks' profilers: each writes a *_ascend_pt or *_ascend_ms
 * folder with a trace where the real one does, and notes how it was
 * asked to profile; the scripts note how they were run. */
static void
write_fake_frameworks (void)
{
  static const char unit_writer[] =
    "import json, os, time\n"
    "def write_unit(output, suffix, settings):\n"
    "    unit = os.path.join(output, 'localhost_%d_%d_%s' % (os.getpid(), int(time.time() * 1000), suffix))\n"
    "    trace = os.path.join(unit, 'ASCEND_PROFILER_OUTPUT')\n"
    "    os.makedirs(trace)\n"
    "    events = [{'ph': 'M', 'name': 'process_name', 'pid': 1, 'args': {'name': 'Ascend Hardware'}}]\n"
    "    for i, op in enumerate(('Conv2D', 'MatMul', 'ReLU')):\n"
    "        events.append({'ph': 'X', 'name': op, 'pid': 1, 'tid': 1, 'ts': 1000 + i * 200, 'dur': 150})\n"
    "    with open(os.path.join(trace, 'trace_view.json'), 'w') as f:\n"
    "        json.dump(events, f)\n"
    "    with open(os.path.join(trace, 'kernel_details.csv'), 'w') as f:\n"
    "        f.write('Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\\n')\n"
    "        for i, op in enumerate(('Conv2D', 'MatMul', 'ReLU')):\n"
    "            f.write('1,%s_%d,%s,AI_CORE,%d,150,0,8\\n' % (op, i, op, 1000 + i * 200))\n"
    "    with open(os.path.join(trace, 'step_trace_time.csv'), 'w') as f:\n"
    "        f.write('Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\\n')\n"
    "        f.write('1,450,0,0,0,100,0,0\\n')\n"
    "    with open(os.path.join(unit, 'asked.json'), 'w') as f:\n"
    "        json.dump(settings, f)\n";

  write_project_file ("fake_unit.py", unit_writer);
  write_project_file ("torch_npu/__init__.py", "from . import profiler\n");
  write_project_file ("torch_npu/profiler.py",
                      "import fake_unit\n"
                      "class _Names:\n"
                      "    def __getattr__(self, name):\n"
                      "        return name\n"
                      "AiCMetrics = ProfilerLevel = ProfilerActivity = _Names()\n"
                      "class _ExperimentalConfig:\n"
                      "    def __init__(self, **settings):\n"
                      "        self.settings = settings\n"
                      "def tensorboard_trace_handler(dir_name):\n"
                      "    return dir_name\n"
                      "class profile:\n"
                      "    def __init__(self, activities=None, on_trace_ready=None, experimental_config=None):\n"
                      "        self.output = on_trace_ready\n"
                      "        self.settings = dict(experimental_config.settings, activities=activities)\n"
                      "    def __enter__(self):\n"
                      "        return self\n"
                      "    def __exit__(self, *exc):\n"
                      "        fake_unit.write_unit(self.output, 'ascend_pt', self.settings)\n"
                      "        return False\n");
  write_project_file ("mindspore/__init__.py",
                      "import atexit, json, os, fake_unit\n"
                      "_options = json.loads(os.environ.get('MS_PROFILER_OPTIONS', '{}'))\n"
                      "if _options.get('start'):\n"
                      "    atexit.register(fake_unit.write_unit, _options['output_path'], 'ascend_ms', _options)\n");
  write_project_file ("train.py",
                      "import json, sys\n"
                      "if 'ms' in sys.argv:\n"
                      "    import mindspore\n"
                      "with open('ran.json', 'w') as f:\n"
                      "    json.dump({'argv': sys.argv, 'name': __name__}, f)\n");
}

/* The toolkit's tools with a Python 3 "python"; Python 2 as "python" and a
 * full disk's df each in a folder of their own, to put before it. */
static void
make_tools (void)
{
  g_autofree char *python3 = g_find_program_in_path ("python3");
  g_autofree char *python_link = NULL;

  toolkit_bin = g_build_filename (tmp_root, "toolkit", "bin", NULL);
  bad_bin = g_build_filename (tmp_root, "python2-bin", NULL);
  full_bin = g_build_filename (tmp_root, "full-bin", NULL);
  project = g_build_filename (tmp_root, "project", NULL);
  {
    const char *dirs[] = { toolkit_bin, bad_bin, full_bin, project };

    for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
      g_assert_cmpint (g_mkdir_with_parents (dirs[i], 0700), ==, 0);
  }
  install_tool (toolkit_bin, "msprof", NULL);
  install_tool (toolkit_bin, "npu-smi", NULL);
  install_tool (bad_bin, "python2", "python");
  install_tool (full_bin, "df", NULL);
  g_assert_nonnull (python3);
  python_link = g_build_filename (toolkit_bin, "python", NULL);
  g_assert_cmpint (symlink (python3, python_link), ==, 0);

  {
    g_autofree char *main_py = g_build_filename (project, "main.py", NULL);
    g_autofree char *sleep_py = g_build_filename (project, "sleep.py", NULL);

    write_file (main_py, "print(\"inference done\")\n");
    write_fake_frameworks ();
    write_file (sleep_py, "import os, time\n"
                          "open('pid', 'w').write(str(os.getpid()))\n"
                          "time.sleep(120)\n");
  }
}

/* An environment script with @dirs first on PATH, and @extra. */
static char *
write_env_script (const char *name,
                  const char *dirs,
                  const char *extra)
{
  g_autofree char *toolkit = g_path_get_dirname (toolkit_bin);
  g_autofree char *path = g_build_filename (tmp_root, name, NULL);
  g_autofree char *text = g_strdup_printf ("export PATH=%s:/usr/bin:/bin\nexport ASCEND_TOOLKIT_HOME=%s\n%s\n",
                                           dirs, toolkit, extra ? extra : "");

  write_file (path, text);
  return g_steal_pointer (&path);
}

static gpointer
find_dialog (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (SL_IS_PROFILE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_dialog () != NULL;
}

static gboolean
dialog_gone (gpointer data)
{
  return find_dialog () == NULL;
}

static gboolean
run_ended (gpointer data)
{
  return !sl_profile_dialog_is_running (data);
}

static gboolean
label_contains (gpointer data)
{
  gpointer *args = data;

  return strstr (gtk_label_get_label (args[0]), args[1]) != NULL;
}

/* The dialog as the main menu opens it, on this computer, filled in. */
static SlProfileDialog *
open_dialog (const char *program,
             const char *env_script)
{
  SlProfileDialog *dialog;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.profile-program", NULL);
  g_assert_true (wait_until (dialog_shown, NULL, 10000));
  dialog = find_dialog ();
  g_assert_true (wait_until (window_is_mapped, dialog, 10000));
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, "folder_row")), project);
  sl_profile_dialog_set_program (dialog, program);
  sl_profile_dialog_set_env_script (dialog, env_script);
  settle ();
  g_assert_true (sl_profile_dialog_validate (dialog, NULL));
  return dialog;
}

static void
start (SlProfileDialog *dialog)
{
  gtk_widget_activate_action (GTK_WIDGET (dialog), "profile.start", NULL);
  g_assert_true (sl_profile_dialog_is_running (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "run_box"))));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "options_page"))));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "start_button"))));
}

static void
screenshots (GtkWidget  *dialog,
             const char *name)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *light_name = g_strdup_printf ("%s.png", name);
  g_autofree char *dark_name = g_strdup_printf ("%s-dark.png", name);
  g_autoptr(Capture) light = NULL;
  g_autoptr(Capture) dark = NULL;
  LumaStats light_box, dark_box;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  wait_for_frames (dialog);
  light = capture_window (dialog, SCREENSHOT_DIR, light_name);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  wait_for_frames (dialog);
  dark = capture_window (dialog, SCREENSHOT_DIR, dark_name);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  light_box = capture_luma_stats (light, 40, light->height / 3, light->width - 80, 40);
  dark_box = capture_luma_stats (dark, 40, dark->height / 3, dark->width - 80, 40);
  g_assert_cmpfloat (dark_box.median, <, light_box.median - 60);
}

static gboolean
process_is_gone (GPid pid)
{
  for (guint i = 0; i < 100; i++)
    {
      if (kill (pid, 0) != 0 && errno == ESRCH)
        return TRUE;
      g_usleep (100 * 1000);
    }
  return FALSE;
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* Start shows the stages as they come; Cancel stops the job on the target
 * and the dialog stays, saying so, ready to start again. */
static void
test_cancel_stops_the_job (void)
{
  g_autofree char *script = write_env_script ("set_env.sh", toolkit_bin, NULL);
  g_autofree char *pid_file = g_build_filename (project, "pid", NULL);
  g_autofree char *pid_text = NULL;
  SlProfileDialog *dialog = open_dialog ("python3 sleep.py", script);
  GtkLabel *status = GTK_LABEL (child (dialog, "status_label"));
  gpointer profiling[] = { status, (gpointer)"Profiling" };

  start (dialog);
  g_assert_true (wait_until (label_contains, profiling, 30000));
  g_assert_true (wait_until (file_exists, pid_file, 30000));
  screenshots (GTK_WIDGET (dialog), "profile-dialog-running");

  /* The dialog's Cancel closes it when idle; while running it cancels. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  g_assert_true (find_dialog () == (gpointer)dialog);
  g_assert_true (wait_until (run_ended, dialog, 30000));
  g_assert_nonnull (strstr (gtk_label_get_label (status), "the job was stopped on"));
  g_assert_nonnull (strstr (gtk_label_get_label (status), "has ended (exit code"));
  screenshots (GTK_WIDGET (dialog), "profile-dialog-cancelled");
  g_assert_true (g_file_get_contents (pid_file, &pid_text, NULL, NULL));
  g_assert_true (process_is_gone ((GPid)g_ascii_strtoll (pid_text, NULL, 10)));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "options_page"))));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "start_button"))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "problems_scroller"))));

  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  g_assert_true (wait_until (dialog_gone, NULL, 10000));
}

/* The run is a job of the Console too: its Stop stops it as Cancel does,
 * and the dialog says so. */
static void
test_console_stop_stops_the_run (void)
{
  g_autofree char *script = write_env_script ("set_env_console.sh", toolkit_bin, NULL);
  g_autofree char *pid_file = g_build_filename (project, "pid", NULL);
  g_autofree char *pid_text = NULL;
  SlConsolePanel *console = SL_CONSOLE_PANEL (sl_window_find_panel (window, "console"));
  SlProfileDialog *dialog;
  GtkLabel *status;
  gpointer profiling[2];

  g_remove (pid_file);
  dialog = open_dialog ("python3 sleep.py", script);
  status = GTK_LABEL (child (dialog, "status_label"));
  profiling[0] = status;
  profiling[1] = (gpointer)"Profiling";
  start (dialog);
  g_assert_true (wait_until (label_contains, profiling, 30000));
  g_assert_true (wait_until (file_exists, pid_file, 30000));
  g_assert_true (sl_console_panel_is_running (console));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (console), "console.stop", NULL));
  g_assert_true (wait_until (run_ended, dialog, 30000));
  g_assert_nonnull (strstr (gtk_label_get_label (status), "the job was stopped on"));
  g_assert_true (g_file_get_contents (pid_file, &pid_text, NULL, NULL));
  g_assert_true (process_is_gone ((GPid)g_ascii_strtoll (pid_text, NULL, 10)));
  g_assert_false (sl_console_panel_is_running (console));

  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  g_assert_true (wait_until (dialog_gone, NULL, 10000));
}

/* A PROF_ (or, with @suffix, a *@suffix) folder pulled into the cache, or NULL. */
static char *
find_pulled (const char *dir,
             const char *suffix)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      char *found;

      if (suffix ? g_str_has_suffix (name, suffix) : g_str_has_prefix (name, "PROF_"))
        return g_steal_pointer (&path);
      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK) &&
          (found = find_pulled (path, suffix)) != NULL)
        return found;
    }
  return NULL;
}

static gboolean
document_settled (gpointer data)
{
  PanelWidget *page = sl_window_find_document (window, data);

  return page != NULL && SL_IS_DOCUMENT (page) && sl_document_get_state (SL_DOCUMENT (page)) != SL_DOCUMENT_LOADING;
}

/* The profile run's job, ended, in the Jobs list while Sightline runs. */
static gboolean
profile_job_listed (gpointer data)
{
  GListModel *jobs = sl_workspace_get_jobs (sl_window_get_workspace (window));

  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(SlJobRecord) job = g_list_model_get_item (jobs, i);

      if (strstr (sl_job_record_get_command (job), "msprof") != NULL && sl_job_record_get_started_at (job) > 0 &&
          sl_job_record_get_finished_at (job) > 0)
        return TRUE;
    }
  return FALSE;
}

/* Only raw data comes out: the dialog goes through the export, the pull
 * and the opening, and the Profile document opens on the pulled folder.
 * The run is a job in the Jobs list at once, and its log is in the
 * Console. */
static void
test_raw_profile_opens (void)
{
  g_autofree char *script = write_env_script ("set_env_raw.sh", toolkit_bin, "export SL_STUB_RAW_ONLY=1");
  g_autofree char *cache = g_build_filename (tmp_root, "cache", NULL);
  g_autofree char *pulled = NULL;
  g_autofree char *timeline = NULL;
  g_autofree char *id = NULL;
  SlProfileDialog *dialog = open_dialog ("python3 main.py", script);
  guint documents = sl_window_get_n_documents (window);

  start (dialog);
  g_assert_true (wait_until (dialog_gone, NULL, 60000));
  g_assert_cmpuint (sl_window_get_n_documents (window), ==, documents + 1);

  pulled = find_pulled (cache, NULL);
  g_assert_nonnull (pulled);
  timeline = g_build_filename (pulled, "device_0", "timeline", NULL);
  g_assert_true (g_file_test (timeline, G_FILE_TEST_IS_DIR));
  id = sl_document_registry_dup_id (sl_document_registry_lookup ("profile"), pulled);
  g_assert_true (wait_until (document_settled, id, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (sl_window_find_document (window, id))), ==, SL_DOCUMENT_READY);

  g_assert_true (wait_until (profile_job_listed, NULL, 30000));
  {
    g_autofree char *text = sl_console_panel_dup_text (SL_CONSOLE_PANEL (sl_window_find_panel (window, "console")));

    g_assert_nonnull (strstr (text, "inference done"));
  }
}

typedef struct {
  SlConsolePanel *console;
  guint           log;
} ConsoleJob;

static gboolean
console_job_ended (gpointer data)
{
  ConsoleJob *job = data;
  SlConsoleLog *log = sl_console_panel_get_job_log (job->console, job->log);

  return log != NULL && !sl_console_log_get_running (log);
}

/* A profile runs while a Run job does: each job streams into a log view
 * of its own, and ends there, while the other goes on. */
static void
test_profile_beside_run_job (void)
{
  g_autofree char *script = write_env_script ("set_env_beside.sh", toolkit_bin, "export SL_STUB_RAW_ONLY=1");
  g_autofree char *go = g_build_filename (tmp_root, "go-beside", NULL);
  g_autofree char *command = g_strdup_printf ("sh -c 'echo run-waiting; while [ ! -e %s ]; do sleep 0.05; done; "
                                              "echo run-ended'", go);
  SlConsolePanel *console = SL_CONSOLE_PANEL (sl_window_find_panel (window, "console"));
  g_autofree char *run_text = NULL;
  g_autofree char *profile_text = NULL;
  SlProfileDialog *dialog;
  ConsoleJob run_job = { console, 0 };
  ConsoleJob profile_job = { console, 0 };
  guint n_logs = sl_console_panel_get_n_jobs (console);

  sl_window_run_command (window, command, tmp_root);
  run_job.log = sl_console_panel_get_shown_job (console);
  g_assert_cmpuint (sl_console_panel_get_n_jobs (console), ==, n_logs + 1);
  g_assert_true (sl_console_log_get_running (sl_console_panel_get_job_log (console, run_job.log)));

  dialog = open_dialog ("python3 main.py", script);
  start (dialog);
  g_assert_true (wait_until (dialog_gone, NULL, 60000));
  g_assert_cmpuint (sl_console_panel_get_n_jobs (console), ==, n_logs + 2);
  profile_job.log = sl_console_panel_get_shown_job (console);
  g_assert_cmpuint (profile_job.log, !=, run_job.log);
  g_assert_true (wait_until (console_job_ended, &profile_job, 30000));
  g_assert_false (console_job_ended (&run_job));

  g_assert_true (g_file_set_contents (go, "", -1, NULL));
  g_assert_true (wait_until (console_job_ended, &run_job, 30000));
  run_text = sl_console_log_dup_text (sl_console_panel_get_job_log (console, run_job.log));
  profile_text = sl_console_log_dup_text (sl_console_panel_get_job_log (console, profile_job.log));
  g_assert_nonnull (strstr (run_text, "run-waiting\nrun-ended\n"));
  g_assert_null (strstr (run_text, "inference done"));
  g_assert_nonnull (strstr (profile_text, "inference done"));
  g_assert_null (strstr (profile_text, "run-waiting"));
  g_assert_true (wait_until (profile_job_listed, NULL, 30000));
}

/* The rows of the dialog's problem list: title and subtitle, joined. */
static char *
dup_problem_rows (SlProfileDialog *dialog)
{
  GtkWidget *list = GTK_WIDGET (child (dialog, "problems_list"));
  GString *out = g_string_new (NULL);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (ADW_IS_ACTION_ROW (row))
      g_string_append_printf (out, "%s | %s\n", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                              adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  return g_string_free (out, FALSE);
}

typedef struct {
  const char *name;
  const char *program;
  const char *message;      /* in the problem's title */
  const char *fix;          /* in its subtitle */
} PreflightCase;

/* Each catch stops the run at Check, listed in the dialog with its fix;
 * the dialog stays open for the fields to be fixed and started again. */
static void
test_preflight_catches (void)
{
  const PreflightCase cases[] = {
    { "python2", "python main.py", "is Python 2.7.18, not Python 3", "python3" },
    { "no-toolkit", "python3 main.py", "msprof is not on PATH on the target", "set_env.sh" },
    { "full-disk", "python3 main.py", "is free in", "Free some space" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const PreflightCase *c = &cases[i];
      g_autofree char *script_name = g_strdup_printf ("set_env_%s.sh", c->name);
      g_autofree char *dirs = NULL;
      g_autofree char *script = NULL;
      g_autofree char *rows = NULL;
      g_autofree char *shot = g_strdup_printf ("profile-dialog-preflight-%s", c->name);
      SlProfileDialog *dialog;
      GtkLabel *status;

      if (g_str_equal (c->name, "python2"))
        dirs = g_strdup_printf ("%s:%s", bad_bin, toolkit_bin);
      else if (g_str_equal (c->name, "full-disk"))
        dirs = g_strdup_printf ("%s:%s", full_bin, toolkit_bin);
      else
        dirs = g_strdup (tmp_root);
      script = write_env_script (script_name, dirs, NULL);
      dialog = open_dialog (c->program, script);
      status = GTK_LABEL (child (dialog, "status_label"));

      start (dialog);
      g_assert_true (wait_until (run_ended, dialog, 30000));
      g_assert_true (find_dialog () == (gpointer)dialog);
      rows = dup_problem_rows (dialog);
      g_test_message ("%s: %s", c->name, rows);
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (child (dialog, "problems_scroller"))));
      g_assert_nonnull (strstr (gtk_label_get_label (status), "Check"));
      g_assert_nonnull (strstr (rows, c->message));
      g_assert_nonnull (strstr (strstr (rows, c->message), c->fix));
      g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (child (dialog, "start_button"))));
      if (i == 0)
        screenshots (GTK_WIDGET (dialog), shot);
      else
        {
          g_autofree char *file = g_strdup_printf ("%s.png", shot);

          save_window_screenshot (GTK_WIDGET (dialog), SCREENSHOT_DIR, file);
        }
      gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
      g_assert_true (wait_until (dialog_gone, NULL, 10000));
    }
}

/* The framework chosen in the dialog runs the program its own way:
 * torch_npu through the launcher around the script, MindSpore through
 * MS_PROFILER_OPTIONS; each result is pulled and opened as a Profile. */
static void
test_framework_profilers (void)
{
  g_autofree char *script = write_env_script ("set_env_frameworks.sh", toolkit_bin, NULL);
  g_autofree char *cache = g_build_filename (tmp_root, "cache", NULL);
  g_autofree char *ran_path = g_build_filename (project, "ran.json", NULL);
  struct {
    SlProfilerKind kind;
    const char    *program;
    const char    *suffix;
    const char    *asked;  /* in what the framework was asked */
    const char    *ran;    /* in how the script ran */
  } cases[] = {
    { SL_PROFILER_TORCH_NPU, "python3 train.py --epochs 2", "_ascend_pt",
      "\"aic_metrics\": \"PipeUtilization\"", "{\"argv\": [\"train.py\", \"--epochs\", \"2\"], \"name\": \"__main__\"}" },
    { SL_PROFILER_MINDSPORE, "python3 train.py ms", "_ascend_ms",
      "\"output_path\": \"sightline-profile\"", "{\"argv\": [\"train.py\", \"ms\"], \"name\": \"__main__\"}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SlProfileDialog *dialog = open_dialog (cases[i].program, script);
      g_autofree char *pulled = NULL;
      g_autofree char *asked_path = NULL;
      g_autofree char *asked = NULL;
      g_autofree char *ran = NULL;
      g_autofree char *id = NULL;

      g_remove (ran_path);
      adw_combo_row_set_selected (ADW_COMBO_ROW (child (dialog, "profiler_row")), cases[i].kind);
      settle ();
      g_assert_true (sl_profile_dialog_validate (dialog, NULL));
      start (dialog);
      g_assert_true (wait_until (dialog_gone, NULL, 60000));

      g_assert_true (g_file_get_contents (ran_path, &ran, NULL, NULL));
      g_assert_cmpstr (ran, ==, cases[i].ran);
      pulled = find_pulled (cache, cases[i].suffix);
      g_assert_nonnull (pulled);
      asked_path = g_build_filename (pulled, "asked.json", NULL);
      g_assert_true (g_file_get_contents (asked_path, &asked, NULL, NULL));
      g_test_message ("%s asked: %s", cases[i].suffix, asked);
      g_assert_nonnull (strstr (asked, cases[i].asked));
      id = sl_document_registry_dup_id (sl_document_registry_lookup ("profile"), pulled);
      g_assert_true (wait_until (document_settled, id, 30000));
      g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (sl_window_find_document (window, id))), ==, SL_DOCUMENT_READY);
    }
}

static GtkWidget *
find_scrolled_window (GtkWidget *widget)
{
  if (GTK_IS_SCROLLED_WINDOW (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_scrolled_window (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Options given as profile-run takes them fill the dialog; the dialog's
 * command is the same msprof command, and its options, given back to
 * profile-run, are taken as they are. */
static void
test_options_round_trip (void)
{
  const char *options[] = {
    "--task-time=on", "--ai-core=on", "--aic-mode=sample-based", "--aic-freq=40", "--aic-metrics=MemoryUB",
    "--aicpu=on", "--ascendcl=on", "--runtime-api=on", "--hccl=on", "--msproftx=on",
    "--sys-hardware-mem=on", "--sys-hardware-mem-freq=20", "--sys-cpu-profiling=on", "--sys-cpu-freq=30",
    "--sys-profiling=on", "--sys-sampling-freq=5", "--sys-pid-profiling=on", "--sys-pid-sampling-freq=2",
    "--sys-io-profiling=on", "--sys-io-sampling-freq=80", "--sys-interconnection-profiling=on",
    "--sys-interconnection-freq=25", "--dvpp-profiling=on", "--dvpp-freq=10", "--host-sys=cpu,disk,osrt",
  };
  const char *program[] = { "python3", "main.py", NULL };
  g_autofree char *script = write_env_script ("set_env_options.sh", toolkit_bin, NULL);
  g_autofree char *db = g_build_filename (tmp_root, "cli.db", NULL);
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(GPtrArray) cli = g_ptr_array_new ();
  g_auto(GStrv) expected = NULL;
  g_auto(GStrv) shown = NULL;
  g_auto(GStrv) given_back = NULL;
  g_autofree char *expected_line = NULL;
  g_autofree char *shown_line = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  SlProfileDialog *dialog;
  int status = -1;

  sl_msprof_command_set_program (command, program);
  sl_msprof_command_set_output (command, "sightline-profile");
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autofree char *name = g_strndup (options[i] + 2, strcspn (options[i] + 2, "="));

      g_assert_true (sl_msprof_command_apply_option (command, name, strchr (options[i], '=') + 1, NULL));
    }
  expected = sl_msprof_command_dup_argv (command, NULL);
  g_assert_nonnull (expected);

  dialog = open_dialog ("python3 main.py", script);
  sl_profile_dialog_load_command (dialog, command);
  settle ();
  g_assert_true (sl_profile_dialog_validate (dialog, NULL));
  shown = sl_msprof_command_dup_argv (sl_profile_dialog_get_command (dialog), NULL);
  expected_line = g_strjoinv (" ", expected);
  shown_line = g_strjoinv (" ", shown);
  g_assert_cmpstr (shown_line, ==, expected_line);
  g_assert_nonnull (strstr (sl_profile_dialog_get_command_preview (dialog), "'--sys-pid-sampling-freq=2'"));

  given_back = sl_msprof_command_dup_options (sl_profile_dialog_get_command (dialog));
  g_assert_cmpuint (g_strv_length (given_back), ==, G_N_ELEMENTS (options));
  g_ptr_array_add (cli, (gpointer)g_getenv ("SL_CLI"));
  g_ptr_array_add (cli, (gpointer)"profile-run");
  g_ptr_array_add (cli, (gpointer)"--dry-run");
  g_ptr_array_add (cli, (gpointer)"--target=local");
  g_ptr_array_add (cli, (gpointer)"--db");
  g_ptr_array_add (cli, db);
  for (guint i = 0; given_back[i] != NULL; i++)
    g_ptr_array_add (cli, given_back[i]);
  g_ptr_array_add (cli, (gpointer)"--");
  g_ptr_array_add (cli, (gpointer)"python3");
  g_ptr_array_add (cli, (gpointer)"main.py");
  g_ptr_array_add (cli, NULL);
  g_assert_nonnull (cli->pdata[0]);
  g_assert_true (g_spawn_sync (project, (char **)cli->pdata, NULL, 0, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    g_assert_nonnull (strstr (out, options[i]));

  /* The options as a user sees them: the system samplers, scrolled to. */
  {
    GtkWidget *scrolled = find_scrolled_window (GTK_WIDGET (child (dialog, "options_page")));
    GtkAdjustment *adjustment;

    g_assert_nonnull (scrolled);
    wait_for_frames (GTK_WIDGET (dialog));
    adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    screenshots (GTK_WIDGET (dialog), "profile-dialog-options");
  }
  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  g_assert_true (wait_until (dialog_gone, NULL, 10000));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-profile-run-XXXXXX");
  if (skip_without_display ())
    return 77;
  {
    g_autofree char *cache = g_build_filename (tmp_root, "cache", NULL);

    /* Before anything asks GLib for the user folders. */
    g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  }
  make_tools ();

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/profile-run/cancel", test_cancel_stops_the_job);
  g_test_add_func ("/profile-run/console-stop", test_console_stop_stops_the_run);
  g_test_add_func ("/profile-run/raw-profile-opens", test_raw_profile_opens);
  g_test_add_func ("/profile-run/preflight-catches", test_preflight_catches);
  g_test_add_func ("/profile-run/framework-profilers", test_framework_profilers);
  g_test_add_func ("/profile-run/options-round-trip", test_options_round_trip);
  g_test_add_func ("/profile-run/beside-run-job", test_profile_beside_run_job);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", tmp_root);

    g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  }
  return status;
}
