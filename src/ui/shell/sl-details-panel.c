/* sl-details-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-details-panel.h"
#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-problem.h"
#include "sl-problems-panel.h"
#include "sl-target-record.h"
#include "sl-tooltip.h"

#define SNIPPET_BYTES 128

struct _SlDetailsPanel
{
  PanelWidget    parent_instance;

  GObject       *item;
  SlDocument    *document;        /* weak: the document in front */
  SlDescription *description;     /* what the rows show, when a document's */
  gboolean       showing_document;
  GHashTable    *values;
  GCancellable  *snippet_cancellable;
  guint          n_rows;
  GtkWidget     *last_value;

  GtkStack      *stack;
  GtkImage      *icon;
  GtkLabel      *title;
  GtkGrid       *grid;
  GtkLabel      *snippet_title;
  GtkLabel      *snippet;
};

G_DEFINE_FINAL_TYPE (SlDetailsPanel, sl_details_panel, PANEL_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
clear_rows (SlDetailsPanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))))
    gtk_grid_remove (self->grid, child);

  g_hash_table_remove_all (self->values);
  self->n_rows = 0;
  self->last_value = NULL;
  gtk_widget_set_visible (GTK_WIDGET (self->snippet_title), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->snippet), FALSE);
}

/* Each label sits above its value, so that the value gets the panel's
 * width: a side panel is too narrow for a column of labels beside one of
 * values, which then broke names and numbers two letters a line. */
static void
attach_row (SlDetailsPanel *self,
            const char     *key,
            GtkWidget      *value)
{
  GtkWidget *key_label = gtk_label_new (key);

  gtk_label_set_xalign (GTK_LABEL (key_label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (key_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (key_label), PANGO_WRAP_WORD_CHAR);
  sl_label_set_no_hyphens (GTK_LABEL (key_label));
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_widget_add_css_class (key_label, "caption");
  if (self->n_rows > 0)
    gtk_widget_set_margin_top (key_label, 8);
  gtk_widget_set_hexpand (value, TRUE);

  gtk_grid_attach (self->grid, key_label, 0, 2 * self->n_rows, 1, 1);
  gtk_grid_attach (self->grid, value, 0, 2 * self->n_rows + 1, 1, 1);
  self->n_rows++;
  self->last_value = value;
}

static void
add_row (SlDetailsPanel *self,
         const char     *key,
         const char     *value)
{
  GtkWidget *value_label;

  if (value == NULL || value[0] == '\0')
    return;

  /* Whole words on a line; a name longer than the line breaks between
   * characters, never with a hyphen put in, and can be copied. */
  value_label = gtk_label_new (value);
  gtk_label_set_xalign (GTK_LABEL (value_label), 0.0);
  sl_label_set_wrap_for_text (GTK_LABEL (value_label));
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  sl_label_set_no_hyphens (GTK_LABEL (value_label));
  attach_row (self, key, value_label);

  g_hash_table_insert (self->values, g_strdup (key), g_strdup (value));
}

static void
show_finding (SlDetailsPanel *self,
              SlFinding      *finding)
{
  g_autofree char *size = g_format_size (sl_finding_get_size (finding));
  g_autofree char *n_files = g_strdup_printf ("%u", sl_finding_get_n_files (finding));

  gtk_image_set_from_icon_name (self->icon, sl_finding_kind_to_icon (sl_finding_get_kind (finding)));
  {
    g_autofree char *name = sl_finding_dup_display_name (finding);

    gtk_label_set_label (self->title, name);
  }

  add_row (self, _("Kind"), sl_finding_kind_to_label (sl_finding_get_kind (finding)));
  add_row (self, _("Path"), sl_finding_get_path (finding));
  add_row (self, _("Files"), n_files);
  add_row (self, _("Size"), size);

  for (guint i = 0; i < sl_finding_get_n_details (finding); i++)
    {
      const char *key;
      const char *value;

      g_autofree char *label = NULL;

      sl_finding_get_detail (finding, i, &key, &value);
      label = sl_finding_detail_dup_label_for_value (key, value);
      add_row (self, label, sl_finding_detail_value_label (value));
    }
}

static void
show_folder (SlDetailsPanel *self,
             SlFolder       *folder)
{
  g_autofree char *findings = g_strdup_printf ("%u", g_list_model_get_n_items (sl_folder_get_findings (folder)));
  g_autofree char *problems = g_strdup_printf ("%u", g_list_model_get_n_items (sl_folder_get_problems (folder)));
  g_autofree char *files = g_strdup_printf ("%u", sl_folder_get_files_scanned (folder));
  g_autofree char *scan_time = g_strdup_printf (_("%.1f ms"), sl_folder_get_scan_time (folder) / 1000.0);
  const char *state;

  switch (sl_folder_get_state (folder))
    {
    case SL_FOLDER_SCANNING:
      state = _("Scanning");
      break;
    case SL_FOLDER_FAILED:
      state = _("Could not be read");
      break;
    case SL_FOLDER_READY:
    default:
      state = _("Scanned");
      break;
    }

  gtk_image_set_from_icon_name (self->icon, "folder-symbolic");
  gtk_label_set_label (self->title, sl_folder_get_name (folder));

  add_row (self, _("Path"), sl_folder_get_path (folder));
  add_row (self, _("State"), state);
  add_row (self, _("Error"), sl_folder_get_error_message (folder));
  add_row (self, _("Files scanned"), files);
  add_row (self, _("Found"), findings);
  add_row (self, _("Problems"), problems);
  if (sl_folder_get_state (folder) == SL_FOLDER_READY)
    add_row (self, _("Scan time"), scan_time);
}

static const char *
auth_label (SlTargetAuth auth)
{
  switch (auth)
    {
    case SL_TARGET_AUTH_KEY:
      return _("Key file");
    case SL_TARGET_AUTH_PASSWORD:
      return _("Password (asked for each time)");
    case SL_TARGET_AUTH_KEYBOARD_INTERACTIVE:
      return _("Keyboard-interactive (asked for each time)");
    case SL_TARGET_AUTH_AGENT:
    default:
      return _("SSH agent");
    }
}

static void
show_target (SlDetailsPanel *self,
             SlTargetRecord *target)
{
  gboolean local = sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL;
  g_autofree char *port = g_strdup_printf ("%u", sl_target_record_get_port (target));

  gtk_image_set_from_icon_name (self->icon, local ? "computer-symbolic" : "sl-server-symbolic");
  gtk_label_set_label (self->title, sl_target_record_get_name (target));

  add_row (self, _("Kind"), local ? _("This computer") : _("SSH server"));
  if (local)
    {
      add_row (self, _("Host"), g_get_host_name ());
      return;
    }

  add_row (self, _("Host"), sl_target_record_get_host (target));
  add_row (self, _("Port"), port);
  add_row (self, _("User"), sl_target_record_get_user (target));
  add_row (self, _("Sign-in"), auth_label (sl_target_record_get_auth (target)));
  add_row (self, _("Key file"), sl_target_record_get_identity_file (target));
  add_row (self, _("Known hosts file"), sl_target_record_get_known_hosts_file (target));
  add_row (self, _("Remote folder"), sl_target_record_get_remote_base_folder (target));
  add_row (self, _("Set-up command"), sl_target_record_get_setup_command (target));
}

/* Bytes around the reported offset: as text when they are, else as hex,
 * eight bytes a row to fit a side panel, with the reported row marked. */
static char *
format_snippet (const guint8 *data,
                gsize         len,
                gint64        base,
                gint64        offset)
{
  GString *str;

  if (g_utf8_validate ((const char *)data, len, NULL) && memchr (data, '\0', len) == NULL)
    return g_strndup ((const char *)data, len);

  str = g_string_new (NULL);
  for (gsize row = 0; row < len; row += 8)
    {
      gint64 row_offset = base + (gint64)row;
      gboolean marked = offset >= row_offset && offset < row_offset + 8;

      g_string_append_printf (str, "%s%06llx ", marked ? "\u25b6" : " ", (unsigned long long)row_offset);
      for (gsize i = row; i < row + 8; i++)
        {
          if (i == row + 4)
            g_string_append_c (str, ' ');
          if (i < len)
            g_string_append_printf (str, "%02x", data[i]);
          else
            g_string_append (str, "  ");
        }
      g_string_append (str, " ");
      for (gsize i = row; i < row + 8 && i < len; i++)
        g_string_append_c (str, g_ascii_isprint (data[i]) ? data[i] : '.');
      g_string_append_c (str, '\n');
    }

  return g_string_free (str, FALSE);
}

static void
read_snippet_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  SlProblem *problem = task_data;
  g_autoptr(GFile) file = g_file_new_for_path (sl_problem_get_path (problem));
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  guint8 buffer[SNIPPET_BYTES];
  gint64 offset = sl_problem_get_offset (problem);
  gint64 start = MAX (0, (offset - SNIPPET_BYTES / 2) & ~(gint64)7);
  gsize n_read = 0;

  stream = g_file_read (file, cancellable, &error);
  if (stream == NULL ||
      !g_seekable_seek (G_SEEKABLE (stream), start, G_SEEK_SET, cancellable, &error) ||
      !g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, sizeof buffer, &n_read, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, format_snippet (buffer, n_read, start, offset), g_free);
}

#define LOG_SNIPPET_MAX_BYTES (4 * 1024 * 1024)
#define LOG_SNIPPET_CONTEXT 3

/* The lines of a pulled log around the problem's line, that line marked;
 * only the start of a huge log is read. */
static void
read_log_lines_thread (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  SlProblem *problem = task_data;
  g_autoptr(GFile) file = g_file_new_for_path (sl_problem_get_local_copy (problem));
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *buffer = g_malloc (LOG_SNIPPET_MAX_BYTES + 1);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GString *out = g_string_new (NULL);
  guint line = sl_problem_get_line (problem);
  gsize n_read = 0;

  stream = g_file_read (file, cancellable, &error);
  if (stream == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, LOG_SNIPPET_MAX_BYTES, &n_read, cancellable, &error))
    {
      g_string_free (out, TRUE);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  text = g_utf8_make_valid (buffer, n_read);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = line > LOG_SNIPPET_CONTEXT ? line - LOG_SNIPPET_CONTEXT : 1;
       i <= line + LOG_SNIPPET_CONTEXT && i <= g_strv_length (lines); i++)
    g_string_append_printf (out, "%s%u %s\n", i == line ? "\u25b6" : " ", i, lines[i - 1]);
  g_task_return_pointer (task, g_string_free (out, FALSE), g_free);
}

static void
read_snippet_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SlDetailsPanel *self = SL_DETAILS_PANEL (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  gtk_widget_set_visible (GTK_WIDGET (self->snippet_title), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->snippet), TRUE);
  gtk_label_set_label (self->snippet, text ? text : error->message);
}

static void
show_problem (SlDetailsPanel *self,
              SlProblem      *problem)
{
  g_autofree char *location = sl_problem_dup_location (problem);
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (sl_problem_get_time (problem) / G_USEC_PER_SEC);
  g_autofree char *when = time ? g_date_time_format (time, "%X") : NULL;

  gtk_image_set_from_icon_name (self->icon, sl_problems_panel_severity_icon_name (sl_problem_get_severity (problem)));
  gtk_label_set_label (self->title, sl_problem_get_message (problem));

  add_row (self, _("Severity"), sl_problems_panel_severity_label (sl_problem_get_severity (problem)));
  add_row (self, _("Code"), sl_problem_get_code (problem));
  add_row (self, _("Concerns"), sl_problem_get_subject (problem));
  add_row (self, _("File"), sl_problem_get_path (problem));
  add_row (self, _("Copy here"), sl_problem_get_local_copy (problem));
  add_row (self, _("Position"), location);
  add_row (self, _("Source"), sl_problem_get_source (problem));
  add_row (self, _("Time"), when);
  add_row (self, _("What to try"), sl_problem_get_hint (problem));

  /* A log pulled from a target opens here at the problem's line. */
  if (sl_problem_get_local_copy (problem) != NULL && sl_problem_get_line (problem) > 0)
    {
      g_autoptr(GTask) task = NULL;

      self->snippet_cancellable = g_cancellable_new ();
      task = g_task_new (self, self->snippet_cancellable, read_snippet_cb, NULL);
      g_task_set_task_data (task, g_object_ref (problem), g_object_unref);
      g_task_run_in_thread (task, read_log_lines_thread);
    }
  else if (sl_problem_get_path (problem) != NULL && sl_problem_get_offset (problem) >= 0)
    {
      g_autoptr(GTask) task = NULL;

      self->snippet_cancellable = g_cancellable_new ();
      task = g_task_new (self, self->snippet_cancellable, read_snippet_cb, NULL);
      g_task_set_task_data (task, g_object_ref (problem), g_object_unref);
      g_task_run_in_thread (task, read_snippet_thread);
    }
}

/**
 * sl_details_panel_show:
 * @item: (nullable): a finding, folder, target or problem
 */
void
sl_details_panel_show (SlDetailsPanel *self,
                       GObject        *item)
{
  g_return_if_fail (SL_IS_DETAILS_PANEL (self));

  g_cancellable_cancel (self->snippet_cancellable);
  g_clear_object (&self->snippet_cancellable);
  g_set_object (&self->item, item);
  g_clear_object (&self->description);
  self->showing_document = FALSE;
  clear_rows (self);

  if (SL_IS_FINDING (item))
    show_finding (self, SL_FINDING (item));
  else if (SL_IS_FOLDER (item))
    show_folder (self, SL_FOLDER (item));
  else if (SL_IS_TARGET_RECORD (item))
    show_target (self, SL_TARGET_RECORD (item));
  else if (SL_IS_PROBLEM (item))
    show_problem (self, SL_PROBLEM (item));
  else
    g_clear_object (&self->item);
  sl_label_set_wrap_for_text (self->title);

  gtk_stack_set_visible_child_name (self->stack, self->item ? "details" : "empty");
}

/**
 * sl_details_panel_show_rows:
 * @item: (nullable): what the rows describe, kept as the panel's item
 * @rows: (array zero-terminated=1): label, value, label, value…
 *
 * Shows rows a view made itself (a timeline slice, for instance).
 */
void
sl_details_panel_show_rows (SlDetailsPanel     *self,
                            GObject            *item,
                            const char         *icon_name,
                            const char         *title,
                            const char * const *rows)
{
  g_return_if_fail (SL_IS_DETAILS_PANEL (self));
  g_return_if_fail (rows != NULL);

  g_cancellable_cancel (self->snippet_cancellable);
  g_clear_object (&self->snippet_cancellable);
  g_set_object (&self->item, item);
  g_clear_object (&self->description);
  self->showing_document = FALSE;
  clear_rows (self);

  gtk_image_set_from_icon_name (self->icon, icon_name);
  gtk_label_set_label (self->title, title);
  sl_label_set_wrap_for_text (self->title);
  sl_details_panel_add_rows (self, rows);

  gtk_stack_set_visible_child_name (self->stack, "details");
}

/**
 * sl_details_panel_add_rows:
 * @rows: (array zero-terminated=1): label, value, label, value…
 *
 * Adds rows below those shown.
 */
void
sl_details_panel_add_rows (SlDetailsPanel     *self,
                           const char * const *rows)
{
  g_return_if_fail (SL_IS_DETAILS_PANEL (self));
  g_return_if_fail (rows != NULL);

  for (guint i = 0; rows[i] != NULL && rows[i + 1] != NULL; i += 2)
    add_row (self, rows[i], rows[i + 1]);
}

static gboolean
activate_link_cb (GtkLabel   *label,
                  const char *uri,
                  gpointer    user_data)
{
  SlDetailsLinkFunc func = (SlDetailsLinkFunc)g_object_get_data (G_OBJECT (label), "sl-link-func");

  func (g_object_get_data (G_OBJECT (label), "sl-link-data"));
  return TRUE;
}

/* Details outlive what they describe: an object link holds it weakly. */
typedef struct {
  GWeakRef                object;
  SlDetailsObjectLinkFunc func;
  guint64                 target;
} ObjectLink;

static void
object_link_free (gpointer data)
{
  ObjectLink *link = data;

  g_weak_ref_clear (&link->object);
  g_free (link);
}

static void
object_link_cb (gpointer data)
{
  ObjectLink *link = data;
  g_autoptr(GObject) object = g_weak_ref_get (&link->object);

  if (object != NULL)
    link->func (object, link->target);
}

/**
 * sl_details_panel_add_object_link:
 * @object: what the link acts on (a document), held weakly
 * @func: called with @object and @target when the value is clicked
 * @target: what to show (an item, a slice), as the caller encodes it
 *
 * Adds a link row that does nothing once @object is gone.
 */
void
sl_details_panel_add_object_link (SlDetailsPanel          *self,
                                  const char              *key,
                                  const char              *value,
                                  GObject                 *object,
                                  SlDetailsObjectLinkFunc  func,
                                  guint64                  target)
{
  ObjectLink *link;

  g_return_if_fail (SL_IS_DETAILS_PANEL (self));
  g_return_if_fail (G_IS_OBJECT (object));
  g_return_if_fail (func != NULL);

  link = g_new0 (ObjectLink, 1);
  g_weak_ref_init (&link->object, object);
  link->func = func;
  link->target = target;
  sl_details_panel_add_link_row (self, key, value, object_link_cb, link, object_link_free);
}

/**
 * sl_details_panel_add_link_row:
 * @func: called with @data when the value is clicked
 * @destroy: (nullable): frees @data when the rows are replaced
 *
 * Adds a row below those shown whose value is a link (to a related item).
 */
void
sl_details_panel_add_link_row (SlDetailsPanel    *self,
                               const char        *key,
                               const char        *value,
                               SlDetailsLinkFunc  func,
                               gpointer           data,
                               GDestroyNotify     destroy)
{
  GtkWidget *value_label;
  g_autofree char *markup = NULL;

  g_return_if_fail (SL_IS_DETAILS_PANEL (self));
  g_return_if_fail (func != NULL);

  self->last_value = NULL;
  add_row (self, key, value);
  value_label = self->last_value;
  if (value_label == NULL || value == NULL || value[0] == '\0')
    {
      if (destroy != NULL)
        destroy (data);
      return;
    }

  markup = g_markup_printf_escaped ("<a href=\"#\">%s</a>", value);
  gtk_label_set_markup (GTK_LABEL (value_label), markup);
  gtk_label_set_selectable (GTK_LABEL (value_label), FALSE);
  g_object_set_data (G_OBJECT (value_label), "sl-link-func", func);
  g_object_set_data_full (G_OBJECT (value_label), "sl-link-data", data, destroy);
  g_signal_connect (value_label, "activate-link", G_CALLBACK (activate_link_cb), NULL);
}

/**
 * sl_details_panel_add_widget_row:
 * @widget: (transfer floating): what stands for the value (an entry to
 *   edit it, say)
 *
 * Adds a row below those shown whose value is @widget.
 */
void
sl_details_panel_add_widget_row (SlDetailsPanel *self,
                                 const char     *key,
                                 GtkWidget      *widget)
{
  g_return_if_fail (SL_IS_DETAILS_PANEL (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (GTK_IS_WIDGET (widget));

  attach_row (self, key, widget);
}

/**
 * sl_details_panel_get_item:
 *
 * Returns: (transfer none) (nullable): what the panel shows
 */
GObject *
sl_details_panel_get_item (SlDetailsPanel *self)
{
  g_return_val_if_fail (SL_IS_DETAILS_PANEL (self), NULL);

  return self->item;
}

/**
 * sl_details_panel_get_value_widget:
 *
 * Returns: (transfer none) (nullable): what shows the value of the row
 *   labelled @key (a label, a link or the widget given)
 */
GtkWidget *
sl_details_panel_get_value_widget (SlDetailsPanel *self,
                                   const char     *key)
{
  g_return_val_if_fail (SL_IS_DETAILS_PANEL (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint row = 0; row < self->n_rows; row++)
    {
      GtkWidget *key_label = gtk_grid_get_child_at (self->grid, 0, 2 * row);

      if (GTK_IS_LABEL (key_label) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (key_label)), key) == 0)
        return gtk_grid_get_child_at (self->grid, 0, 2 * row + 1);
    }
  return NULL;
}

/**
 * sl_details_panel_lookup:
 *
 * Returns: (nullable): the value shown for @key (its translated label)
 */
const char *
sl_details_panel_lookup (SlDetailsPanel *self,
                         const char     *key)
{
  g_return_val_if_fail (SL_IS_DETAILS_PANEL (self), NULL);

  return g_hash_table_lookup (self->values, key);
}

typedef struct {
  SlDescription *description;
  guint          row;
} DescriptionLink;

static void
description_link_free (gpointer data)
{
  DescriptionLink *link = data;

  g_object_unref (link->description);
  g_free (link);
}

static void
description_link_cb (gpointer data)
{
  DescriptionLink *link = data;
  /* Following a link may describe another selection in its place. */
  g_autoptr(SlDescription) description = g_object_ref (link->description);

  sl_description_activate_row (description, link->row);
}

static void
description_entry_activate_cb (GtkEntry       *entry,
                               SlDetailsPanel *self)
{
  g_autoptr(SlDescription) description = g_object_ref (g_object_get_data (G_OBJECT (entry), "sl-description"));
  guint row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "sl-description-row"));

  sl_description_edit_row (description, row, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static GtkWidget *
description_entry_new (SlDetailsPanel *self,
                       SlDescription  *description,
                       guint           row)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_text (GTK_EDITABLE (entry), sl_description_get_row_value (description, row));
  if (sl_description_get_row_placeholder (description, row) != NULL)
    gtk_entry_set_placeholder_text (GTK_ENTRY (entry), sl_description_get_row_placeholder (description, row));
  gtk_widget_set_tooltip_text (entry, sl_description_get_row_tooltip (description, row));
  g_object_set_data_full (G_OBJECT (entry), "sl-description", g_object_ref (description), g_object_unref);
  g_object_set_data (G_OBJECT (entry), "sl-description-row", GUINT_TO_POINTER (row));
  g_signal_connect_object (entry, "activate", G_CALLBACK (description_entry_activate_cb), self, 0);
  return entry;
}

/**
 * sl_details_panel_show_description:
 *
 * Shows what a document said of its selection: its rows of text, its
 * links and its editable values.
 */
void
sl_details_panel_show_description (SlDetailsPanel *self,
                                   SlDescription  *description)
{
  const char * const no_rows[] = { NULL };

  g_return_if_fail (SL_IS_DETAILS_PANEL (self));
  g_return_if_fail (SL_IS_DESCRIPTION (description));

  g_object_ref (description);
  sl_details_panel_show_rows (self, sl_description_get_item (description), sl_description_get_icon_name (description),
                              sl_description_get_title (description), no_rows);
  self->description = description;
  for (guint i = 0; i < sl_description_get_n_rows (description); i++)
    {
      const char *key = sl_description_get_row_key (description, i);
      const char *value = sl_description_get_row_value (description, i);

      switch (sl_description_get_row_kind (description, i))
        {
        case SL_DESCRIPTION_ROW_LINK:
          {
            DescriptionLink *link = g_new0 (DescriptionLink, 1);

            link->description = g_object_ref (description);
            link->row = i;
            sl_details_panel_add_link_row (self, key, value, description_link_cb, link, description_link_free);
          }
          break;
        case SL_DESCRIPTION_ROW_EDIT:
          sl_details_panel_add_widget_row (self, key, description_entry_new (self, description, i));
          break;
        case SL_DESCRIPTION_ROW_TEXT:
        default:
          add_row (self, key, value);
          break;
        }
    }
}

/* Details shows the selection of the document in front, or what a panel
 * selected (an item); once it shows a document's, it follows the
 * document in front: that document's selection, or nothing. */
static void
show_document_selection (SlDetailsPanel *self)
{
  SlDescription *selection = self->document != NULL ? sl_document_get_selection (self->document) : NULL;

  if (selection != NULL)
    {
      sl_details_panel_show_description (self, selection);
      self->showing_document = TRUE;
    }
  else if (self->showing_document)
    sl_details_panel_show (self, NULL);
}

static void
document_selection_cb (SlDetailsPanel *self,
                       GParamSpec     *pspec,
                       SlDocument     *document)
{
  if (document == self->document)
    show_document_selection (self);
}

/**
 * sl_details_panel_set_document:
 * @document: (nullable): the document in front, held weakly
 *
 * Follows the selection of @document.
 */
void
sl_details_panel_set_document (SlDetailsPanel *self,
                               SlDocument     *document)
{
  g_return_if_fail (SL_IS_DETAILS_PANEL (self));
  g_return_if_fail (document == NULL || SL_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_func (self->document, document_selection_cb, self);
  g_set_weak_pointer (&self->document, document);
  if (document != NULL)
    g_signal_connect_object (document, "notify::selection", G_CALLBACK (document_selection_cb), self,
                             G_CONNECT_SWAPPED);
  show_document_selection (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/**
 * sl_details_panel_get_document:
 *
 * Returns: (transfer none) (nullable): the document Details follows
 */
SlDocument *
sl_details_panel_get_document (SlDetailsPanel *self)
{
  g_return_val_if_fail (SL_IS_DETAILS_PANEL (self), NULL);
  return self->document;
}

static void
sl_details_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlDetailsPanel *self = SL_DETAILS_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_details_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SlDetailsPanel *self = SL_DETAILS_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      sl_details_panel_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_details_panel_dispose (GObject *object)
{
  SlDetailsPanel *self = (SlDetailsPanel *)object;

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_func (self->document, document_selection_cb, self);
  g_clear_weak_pointer (&self->document);
  g_clear_object (&self->description);

  g_cancellable_cancel (self->snippet_cancellable);
  g_clear_object (&self->snippet_cancellable);
  g_clear_object (&self->item);
  g_clear_pointer (&self->values, g_hash_table_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_DETAILS_PANEL);

  G_OBJECT_CLASS (sl_details_panel_parent_class)->dispose (object);
}

static void
sl_details_panel_class_init (SlDetailsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_details_panel_dispose;
  object_class->get_property = sl_details_panel_get_property;
  object_class->set_property = sl_details_panel_set_property;

  /**
   * SlDetailsPanel:document:
   *
   * The document in front, whose selection Details shows.
   */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, SL_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-details-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPanel, icon);
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPanel, title);
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPanel, grid);
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPanel, snippet_title);
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPanel, snippet);
}

static void
sl_details_panel_init (SlDetailsPanel *self)
{
  self->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  sl_label_set_no_hyphens (self->title);
}

GtkWidget *
sl_details_panel_new (void)
{
  return g_object_new (SL_TYPE_DETAILS_PANEL, NULL);
}
