/* sl-document.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-document.h"
#include "sl-document-registry.h"

typedef struct
{
  char              *path;
  SlDocumentAddress *address;
  SlWorkspace     *workspace;
  SlDocumentState  state;
  double           progress;
  char            *error;
  GListStore      *problems;
  SlDescription   *selection;
  gboolean         selection_known;    /* FALSE until described again */
  GPtrArray       *pending_requests;   /* of GVariant, until ready */
} SlDocumentPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (SlDocument, sl_document, PANEL_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (SlDocumentState, sl_document_state,
                    G_DEFINE_ENUM_VALUE (SL_DOCUMENT_LOADING, "loading"),
                    G_DEFINE_ENUM_VALUE (SL_DOCUMENT_READY, "ready"),
                    G_DEFINE_ENUM_VALUE (SL_DOCUMENT_EMPTY, "empty"),
                    G_DEFINE_ENUM_VALUE (SL_DOCUMENT_FAILED, "failed"))

enum {
  PROP_0,
  PROP_PATH,
  PROP_ADDRESS,
  PROP_WORKSPACE,
  PROP_STATE,
  PROP_PROGRESS,
  PROP_ERROR,
  PROP_SELECTION,
  PROP_PROBLEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * sl_document_load:
 *
 * Starts reading what the document shows. Called once, by whoever made
 * the document, after setting its properties.
 */
void
sl_document_load (SlDocument *self)
{
  g_return_if_fail (SL_IS_DOCUMENT (self));

  if (SL_DOCUMENT_GET_CLASS (self)->load != NULL)
    SL_DOCUMENT_GET_CLASS (self)->load (self);
}

/**
 * sl_document_get_path:
 *
 * Returns: (nullable): the file or folder shown
 */
const char *
sl_document_get_path (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), NULL);
  return priv->path;
}

/**
 * sl_document_get_address:
 *
 * Returns: (transfer none) (nullable): the paths shown: the one path, or
 *   a comparison's sides in order
 */
SlDocumentAddress *
sl_document_get_address (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), NULL);
  return priv->address;
}

/**
 * sl_document_get_workspace:
 *
 * Returns: (transfer none) (nullable): the workspace the document belongs to
 */
SlWorkspace *
sl_document_get_workspace (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), NULL);
  return priv->workspace;
}

SlDocumentState
sl_document_get_state (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), SL_DOCUMENT_FAILED);
  return priv->state;
}

static void
apply_pending_requests (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);
  g_autoptr(GPtrArray) requests = g_steal_pointer (&priv->pending_requests);

  for (guint i = 0; requests != NULL && i < requests->len; i++)
    SL_DOCUMENT_GET_CLASS (self)->handle_request (self, g_ptr_array_index (requests, i));
}

void
sl_document_set_state (SlDocument      *self,
                       SlDocumentState  state)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_if_fail (SL_IS_DOCUMENT (self));

  if (priv->state == state)
    return;

  priv->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);

  /* A request for a document that cannot show anything is dropped: the
   * document says why on its own page. */
  if (state == SL_DOCUMENT_READY)
    apply_pending_requests (self);
  else if (state != SL_DOCUMENT_LOADING)
    g_clear_pointer (&priv->pending_requests, g_ptr_array_unref);
}

double
sl_document_get_progress (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), 0);
  return priv->progress;
}

/**
 * sl_document_set_progress:
 * @progress: how much of the loading is done, from 0 to 1
 */
void
sl_document_set_progress (SlDocument *self,
                          double      progress)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_if_fail (SL_IS_DOCUMENT (self));

  progress = CLAMP (progress, 0.0, 1.0);
  if (priv->progress == progress)
    return;

  priv->progress = progress;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

/**
 * sl_document_get_error:
 *
 * Returns: (nullable): why the document failed
 */
const char *
sl_document_get_error (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), NULL);
  return priv->error;
}

/**
 * sl_document_fail:
 * @error: why, for people
 *
 * Sets the error and the failed state.
 */
void
sl_document_fail (SlDocument *self,
                  const char *error)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_if_fail (SL_IS_DOCUMENT (self));

  if (g_strcmp0 (priv->error, error) != 0)
    {
      g_free (priv->error);
      priv->error = g_strdup (error);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
    }
  sl_document_set_state (self, SL_DOCUMENT_FAILED);
}

/**
 * sl_document_get_problems:
 *
 * Returns: (transfer none): a #GListModel of #SlProblem the document met
 *   while reading, for the Problems panel
 */
GListModel *
sl_document_get_problems (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), NULL);
  return G_LIST_MODEL (priv->problems);
}

void
sl_document_add_problem (SlDocument *self,
                         SlProblem  *problem)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_if_fail (SL_IS_DOCUMENT (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (priv->problems, problem);
}

/**
 * sl_document_clear_problems:
 *
 * Drops the problems added so far, before a document that reads its
 * source again (a reload, a check after an edit) adds the new ones.
 */
void
sl_document_clear_problems (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_if_fail (SL_IS_DOCUMENT (self));

  g_list_store_remove_all (priv->problems);
}

/**
 * sl_document_get_selection:
 *
 * Asks the document to describe what is selected in it, once for each
 * change.
 *
 * Returns: (transfer none) (nullable): what is selected in the document,
 *   as the document describes it (its item, when it is an object, and
 *   rows for Details), or %NULL when nothing is
 */
SlDescription *
sl_document_get_selection (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_val_if_fail (SL_IS_DOCUMENT (self), NULL);

  if (!priv->selection_known)
    {
      priv->selection_known = TRUE;
      g_clear_object (&priv->selection);
      if (SL_DOCUMENT_GET_CLASS (self)->describe != NULL)
        {
          priv->selection = sl_description_new ();
          if (!SL_DOCUMENT_GET_CLASS (self)->describe (self, priv->selection))
            g_clear_object (&priv->selection);
        }
    }
  return priv->selection;
}

/**
 * sl_document_details_changed:
 *
 * Says that what is selected in the document changed, or what is known
 * of it (a new selection, a selection judged again): notifies
 * #SlDocument:selection, which the document describes again when asked.
 */
void
sl_document_details_changed (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_return_if_fail (SL_IS_DOCUMENT (self));

  priv->selection_known = FALSE;
  g_clear_object (&priv->selection);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

/**
 * sl_document_request:
 * @request: what the document kind understands, say "(sxxx)" for a
 *   search and a range
 *
 * Hands @request to the document now if it is ready, or once it is.
 */
void
sl_document_request (SlDocument *self,
                     GVariant   *request)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);
  g_autoptr(GVariant) owned = g_variant_ref_sink (request);

  g_return_if_fail (SL_IS_DOCUMENT (self));

  if (SL_DOCUMENT_GET_CLASS (self)->handle_request == NULL)
    return;

  if (priv->state == SL_DOCUMENT_READY)
    {
      SL_DOCUMENT_GET_CLASS (self)->handle_request (self, owned);
      return;
    }
  if (priv->state != SL_DOCUMENT_LOADING)
    return;

  if (priv->pending_requests == NULL)
    priv->pending_requests = g_ptr_array_new_with_free_func ((GDestroyNotify)g_variant_unref);
  g_ptr_array_add (priv->pending_requests, g_steal_pointer (&owned));
}

static void
sl_document_finalize (GObject *object)
{
  SlDocument *self = (SlDocument *)object;
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  g_clear_pointer (&priv->path, g_free);
  g_clear_pointer (&priv->address, sl_document_address_unref);
  g_clear_pointer (&priv->error, g_free);
  g_clear_object (&priv->workspace);
  g_clear_object (&priv->problems);
  g_clear_object (&priv->selection);
  g_clear_pointer (&priv->pending_requests, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_document_parent_class)->finalize (object);
}

static void
sl_document_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SlDocument *self = SL_DOCUMENT (object);
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, priv->path);
      break;
    case PROP_ADDRESS:
      g_value_set_boxed (value, priv->address);
      break;
    case PROP_WORKSPACE:
      g_value_set_object (value, priv->workspace);
      break;
    case PROP_STATE:
      g_value_set_enum (value, priv->state);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, priv->progress);
      break;
    case PROP_ERROR:
      g_value_set_string (value, priv->error);
      break;
    case PROP_SELECTION:
      g_value_set_object (value, sl_document_get_selection (self));
      break;
    case PROP_PROBLEMS:
      g_value_set_object (value, priv->problems);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_document_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SlDocument *self = SL_DOCUMENT (object);
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_PATH:
      priv->path = g_value_dup_string (value);
      break;
    case PROP_ADDRESS:
      priv->address = g_value_dup_boxed (value);
      break;
    case PROP_WORKSPACE:
      priv->workspace = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A document made with a path has the address of that path; one made
 * with an address has its first path as its path. */
static void
sl_document_constructed (GObject *object)
{
  SlDocument *self = SL_DOCUMENT (object);
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  G_OBJECT_CLASS (sl_document_parent_class)->constructed (object);

  if (priv->address == NULL && priv->path != NULL && priv->path[0] != '\0')
    priv->address = sl_document_address_new_for_path (priv->path);
  else if (priv->address != NULL && priv->path == NULL)
    priv->path = g_strdup (sl_document_address_get_path (priv->address, 0));
}

static void
sl_document_class_init (SlDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = sl_document_constructed;
  object_class->finalize = sl_document_finalize;
  object_class->get_property = sl_document_get_property;
  object_class->set_property = sl_document_set_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * SlDocument:address:
   *
   * The paths the document shows (see #SlDocumentAddress): its path for
   * most documents, the sides of a comparison in order; #SlDocument:path
   * is the first of them.
   */
  properties[PROP_ADDRESS] =
    g_param_spec_boxed ("address", NULL, NULL, SL_TYPE_DOCUMENT_ADDRESS,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WORKSPACE] =
    g_param_spec_object ("workspace", NULL, NULL, SL_TYPE_WORKSPACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, SL_TYPE_DOCUMENT_STATE, SL_DOCUMENT_LOADING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlDocument:selection:
   *
   * What is selected in the document, described; %NULL when nothing is.
   * Notified whenever the selection or its description changes.
   */
  properties[PROP_SELECTION] =
    g_param_spec_object ("selection", NULL, NULL, SL_TYPE_DESCRIPTION,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlDocument:problems:
   *
   * A #GListModel of the #SlProblem the document met while reading.
   */
  properties[PROP_PROBLEMS] =
    g_param_spec_object ("problems", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_document_init (SlDocument *self)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  priv->problems = g_list_store_new (SL_TYPE_PROBLEM);
}

/* The finding nearest the document that the kind showing ops by name
 * opens, and that kind. */
static SlFinding *
nearest_op_finding (SlDocument            *self,
                    const SlDocumentKind **kind)
{
  SlDocumentPrivate *priv = sl_document_get_instance_private (self);

  *kind = sl_document_registry_lookup_op_view ();
  if (*kind == NULL || priv->workspace == NULL || priv->path == NULL)
    return NULL;
  return sl_workspace_find_nearest_finding (priv->workspace, priv->path, (*kind)->op_findings);
}

/**
 * sl_document_can_show_op:
 *
 * Returns: whether the workspace holds, near the document, something
 *   that shows an op by name (see sl_document_show_op())
 */
gboolean
sl_document_can_show_op (SlDocument *self)
{
  const SlDocumentKind *kind;

  g_return_val_if_fail (SL_IS_DOCUMENT (self), FALSE);

  return nearest_op_finding (self, &kind) != NULL;
}

/**
 * sl_document_show_op:
 * @op_name: the op, as profiles name it
 *
 * Opens the document of the kind that shows ops by name (the registry's
 * @op_findings) on the nearest finding it opens, at @op_name. Toasts the
 * kind's message and returns %FALSE when the workspace has none.
 */
gboolean
sl_document_show_op (SlDocument *self,
                     const char *op_name)
{
  const SlDocumentKind *kind;
  SlFinding *finding;

  g_return_val_if_fail (SL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (op_name != NULL, FALSE);

  finding = nearest_op_finding (self, &kind);
  if (finding == NULL)
    {
      if (kind != NULL && kind->no_op_message != NULL)
        gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", _(kind->no_op_message));
      return FALSE;
    }
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", kind->id,
                              sl_finding_get_path (finding), g_variant_new ("(s)", op_name));
  return TRUE;
}
