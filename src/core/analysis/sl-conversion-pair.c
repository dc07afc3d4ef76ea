/* sl-conversion-pair.c: which model of a folder ATC converted into which
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ATC names its output with --output, most often after the model it
 * read (resnet50.onnx → resnet50.om, resnet50_bs1.om), so a model whose
 * name without its extension is the offline model's, or begins it, is
 * taken before any other.
 */
#include "config.h"

#include <string.h>

#include "sl-conversion-pair.h"

gboolean
sl_conversion_pair_is_converted (const char *path)
{
  gsize len = path != NULL ? strlen (path) : 0;

  return len > 3 && g_ascii_strcasecmp (path + len - 3, ".om") == 0;
}

/* The file name without folders and its last extension. */
static char *
dup_stem (const char *path)
{
  char *name = g_path_get_basename (path);
  char *dot = strrchr (name, '.');

  if (dot != NULL && dot != name)
    *dot = '\0';
  return name;
}

gboolean
sl_conversion_pair_pick (const char * const *paths,
                         guint              *source,
                         guint              *converted)
{
  g_autofree char *converted_stem = NULL;
  guint om = G_MAXUINT, first = G_MAXUINT, prefix = G_MAXUINT;

  g_return_val_if_fail (source != NULL && converted != NULL, FALSE);

  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    if (sl_conversion_pair_is_converted (paths[i]))
      {
        om = i;
        break;
      }
  if (om == G_MAXUINT)
    return FALSE;
  converted_stem = dup_stem (paths[om]);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *stem = NULL;

      if (sl_conversion_pair_is_converted (paths[i]))
        continue;
      stem = dup_stem (paths[i]);
      if (g_str_equal (stem, converted_stem))
        {
          *source = i;
          *converted = om;
          return TRUE;
        }
      if (prefix == G_MAXUINT && stem[0] != '\0' && g_str_has_prefix (converted_stem, stem))
        prefix = i;
      if (first == G_MAXUINT)
        first = i;
    }
  if (prefix == G_MAXUINT && first == G_MAXUINT)
    return FALSE;
  *source = prefix != G_MAXUINT ? prefix : first;
  *converted = om;
  return TRUE;
}
