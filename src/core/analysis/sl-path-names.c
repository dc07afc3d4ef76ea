/* sl-path-names.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "sl-path-names.h"

/* The scopes of a '/'-joined path (all but the last part). */
typedef struct {
  char **parts;
  guint  n_parts;
} Split;

static gboolean
suffix_equal (const Split *a,
              const Split *b,
              guint        k)
{
  guint na = a->n_parts - 1;
  guint nb = b->n_parts - 1;

  if (na < k || nb < k)
    return FALSE;
  for (guint i = 1; i <= k; i++)
    if (strcmp (a->parts[na - i], b->parts[nb - i]) != 0)
      return FALSE;
  return TRUE;
}

static gboolean
scopes_equal (const Split *a,
              const Split *b)
{
  return a->n_parts == b->n_parts && suffix_equal (a, b, a->n_parts - 1);
}

/**
 * sl_path_names_distinguish:
 * @paths: (array length=n_paths): '/'-joined paths, scopes then a name
 *
 * For each path, its name after the shortest run of last scopes that no
 * path in another scope ends with too (at least one scope when it has
 * any), so that the layer index in `model/layers.7/attention/wq/MatMul`
 * stays when the other layers are listed with it. The scopes left out
 * are shown as an ellipsis. A path with nothing but separators, or with
 * no scope to leave out, is given whole.
 *
 * Returns: (transfer full) (array length=n_paths zero-terminated=1): the
 *   names to show
 */
char **
sl_path_names_distinguish (const char * const *paths,
                           guint               n_paths)
{
  g_autofree Split *splits = g_new0 (Split, MAX (n_paths, 1));
  char **names = g_new0 (char *, n_paths + 1);

  g_return_val_if_fail (paths != NULL || n_paths == 0, names);

  for (guint i = 0; i < n_paths; i++)
    {
      splits[i].parts = g_strsplit (paths[i] != NULL ? paths[i] : "", "/", -1);
      splits[i].n_parts = g_strv_length (splits[i].parts);
    }

  for (guint i = 0; i < n_paths; i++)
    {
      const Split *s = &splits[i];
      guint n_scopes = s->n_parts > 0 ? s->n_parts - 1 : 0;
      guint k = MIN (1, n_scopes);
      GString *name;

      for (; k < n_scopes; k++)
        {
          gboolean clash = FALSE;

          for (guint j = 0; j < n_paths && !clash; j++)
            clash = j != i && splits[j].n_parts > 0 && !scopes_equal (s, &splits[j]) &&
                    suffix_equal (s, &splits[j], k);
          if (!clash)
            break;
        }

      if (k >= n_scopes || strspn (paths[i], "/") == strlen (paths[i]))
        {
          names[i] = g_strdup (paths[i] != NULL ? paths[i] : "");
          continue;
        }
      name = g_string_new (SL_PATH_NAMES_ELLIPSIS);
      for (guint p = n_scopes - k; p < s->n_parts; p++)
        {
          g_string_append_c (name, '/');
          g_string_append (name, s->parts[p]);
        }
      names[i] = g_string_free (name, FALSE);
    }

  for (guint i = 0; i < n_paths; i++)
    g_strfreev (splits[i].parts);
  return names;
}

/**
 * sl_path_names_relative:
 * @path: a file or folder path
 * @base: (nullable): the folder it was found in
 *
 * Returns: (transfer full): @path relative to @base when it lies inside it
 *   ("." for @base itself), else @path as it is
 */
char *
sl_path_names_relative (const char *path,
                        const char *base)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) folder = NULL;
  char *relative;

  g_return_val_if_fail (path != NULL, NULL);

  if (base == NULL || base[0] == '\0' || path[0] == '\0')
    return g_strdup (path);
  file = g_file_new_for_path (path);
  folder = g_file_new_for_path (base);
  if (g_file_equal (file, folder))
    return g_strdup (".");
  relative = g_file_get_relative_path (folder, file);
  return relative != NULL ? relative : g_strdup (path);
}

/**
 * sl_path_names_run_names:
 * @paths: (array length=n_paths): the summary folders of runs
 *
 * What tells runs apart, as MindInsight shows a summary folder: each path
 * relative to the deepest folder all of them lie in, "./" first ("./run_01",
 * "./a/run_1"). A single run, or runs that all share one folder, is named
 * by that folder's name.
 *
 * Returns: (transfer full) (array length=n_paths zero-terminated=1): the
 *   names
 */
char **
sl_path_names_run_names (const char * const *paths,
                         guint               n_paths)
{
  char **names = g_new0 (char *, n_paths + 1);
  g_autofree char *common = NULL;

  g_return_val_if_fail (paths != NULL || n_paths == 0, names);

  /* The deepest folder holding every path: cut at a separator. */
  for (guint i = 0; i < n_paths; i++)
    {
      g_autofree char *parent = g_path_get_dirname (paths[i] != NULL ? paths[i] : "");
      gsize len = 0;

      if (common == NULL)
        {
          common = g_steal_pointer (&parent);
          continue;
        }
      while (common[len] != '\0' && common[len] == parent[len])
        len++;
      if (!(common[len] == '\0' && (parent[len] == '\0' || parent[len] == G_DIR_SEPARATOR)))
        {
          while (len > 0 && common[len - 1] != G_DIR_SEPARATOR)
            len--;
          /* Keep "/" itself; drop a trailing separator otherwise. */
          if (len > 1)
            len--;
        }
      common[len] = '\0';
    }

  for (guint i = 0; i < n_paths; i++)
    {
      const char *path = paths[i] != NULL ? paths[i] : "";
      g_autofree char *relative = common != NULL && common[0] != '\0' ? sl_path_names_relative (path, common) : NULL;

      if (relative == NULL || g_path_is_absolute (relative) || strcmp (relative, ".") == 0 || relative[0] == '\0')
        {
          g_autofree char *base = g_path_get_basename (path);

          names[i] = g_strdup (path[0] != '\0' ? base : path);
        }
      else
        names[i] = g_strconcat ("." G_DIR_SEPARATOR_S, relative, NULL);
    }
  return names;
}

/* The parts of a file path, split at its separators (either one on
 * Windows); empty parts, from a leading, trailing or doubled separator,
 * are left out. */
static char **
split_file_path (const char *path)
{
  GPtrArray *parts = g_ptr_array_new ();
  const char *start = path;

  for (const char *p = path;; p++)
    if (*p == '\0' || G_IS_DIR_SEPARATOR (*p))
      {
        if (p > start)
          g_ptr_array_add (parts, g_strndup (start, p - start));
        if (*p == '\0')
          break;
        start = p + 1;
      }
  g_ptr_array_add (parts, NULL);
  return (char **) g_ptr_array_free (parts, FALSE);
}

/* Whether @a and @b end with the same @k parts. */
static gboolean
tails_equal (char * const *a,
             guint         na,
             char * const *b,
             guint         nb,
             guint         k)
{
  if (na < k || nb < k)
    return FALSE;
  for (guint i = 1; i <= k; i++)
    if (strcmp (a[na - i], b[nb - i]) != 0)
      return FALSE;
  return TRUE;
}

/**
 * sl_path_names_unique_tails:
 * @paths: (array length=n_paths): file or folder paths
 *
 * For each path, its last parts, as few as tell it from every other path
 * given: the name alone where no other path has that name, else as many
 * folders before it as make the difference ("level0/rank0_ascend_pt" and
 * "level1/rank0_ascend_pt"). The same path given twice has the same name;
 * one that no tail tells apart is given whole.
 *
 * Returns: (transfer full) (array length=n_paths zero-terminated=1): the
 *   names
 */
char **
sl_path_names_unique_tails (const char * const *paths,
                            guint               n_paths)
{
  char **names = g_new0 (char *, n_paths + 1);
  g_autofree char ***parts = g_new0 (char **, MAX (n_paths, 1));
  g_autofree guint *n_parts = g_new0 (guint, MAX (n_paths, 1));

  g_return_val_if_fail (paths != NULL || n_paths == 0, names);

  for (guint i = 0; i < n_paths; i++)
    {
      parts[i] = split_file_path (paths[i] != NULL ? paths[i] : "");
      n_parts[i] = g_strv_length (parts[i]);
    }

  for (guint i = 0; i < n_paths; i++)
    {
      guint k = 1;

      if (n_parts[i] == 0)
        {
          names[i] = g_strdup (paths[i] != NULL ? paths[i] : "");
          continue;
        }
      for (; k < n_parts[i]; k++)
        {
          gboolean clash = FALSE;

          for (guint j = 0; j < n_paths && !clash; j++)
            clash = j != i && g_strcmp0 (paths[i], paths[j]) != 0 &&
                    tails_equal (parts[i], n_parts[i], parts[j], n_parts[j], k);
          if (!clash)
            break;
        }
      if (k >= n_parts[i])
        {
          gboolean clash = FALSE;

          /* every part shared: the whole path tells it apart, if anything */
          for (guint j = 0; j < n_paths && !clash; j++)
            clash = j != i && g_strcmp0 (paths[i], paths[j]) != 0 &&
                    tails_equal (parts[i], n_parts[i], parts[j], n_parts[j], n_parts[i]);
          if (clash || n_parts[i] > 1)
            {
              names[i] = g_strdup (paths[i]);
              continue;
            }
        }
      names[i] = g_strjoinv (G_DIR_SEPARATOR_S, parts[i] + n_parts[i] - k);
    }

  for (guint i = 0; i < n_paths; i++)
    g_strfreev (parts[i]);
  return names;
}
