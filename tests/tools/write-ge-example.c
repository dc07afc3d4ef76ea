/* write-ge-example.c: writes an example AIR model and the OM made of it
 *
 * Usage: write-ge-example FOLDER
 *
 * Writes FOLDER/tiny_net.air and FOLDER/tiny_net.om: the same small conv
 * net (a Data input, Cast, TransData, a Conv2D fused with its bias and
 * ReLU whose _datadump_original_op_names name the source ops, MaxPool,
 * TransData, Cast, NetOutput; two Const weights) as a GE IR ModelDef and
 * as an offline model with its header, partition table and weights
 * partition. The bytes are those the unit tests check (tests/ge-fixture.h),
 * for screenshots and manual runs of the graph view:
 *
 *   sightline --document graph FOLDER/tiny_net.om
 *   sightline-cli graph FOLDER/tiny_net.air --json
 *
 * and FOLDER/source/tiny_net.air, the net as ATC reads it before
 * converting it (no Cast or TransData; the convolution, bias and ReLU
 * apart), for the conversion view:
 *
 *   sightline --document conversion FOLDER/source/tiny_net.air FOLDER/tiny_net.om
 *
 * Exit status: 0 when both files were written, 1 when one could not be,
 * 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "ge-fixture.h"

static gboolean
write_file (const char       *folder,
            const char       *name,
            const GByteArray *bytes)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, (const char *) bytes->data, bytes->len, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return FALSE;
    }
  printf ("%s\n", path);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GByteArray) air = NULL;
  g_autoptr(GByteArray) om_model = NULL;
  g_autoptr(GByteArray) om = NULL;
  g_autoptr(GByteArray) source = NULL;
  g_autofree char *source_folder = NULL;

  if (argc != 2)
    {
      fprintf (stderr, "Usage: %s FOLDER\n", argv[0]);
      return 2;
    }
  if (g_mkdir_with_parents (argv[1], 0755) != 0)
    {
      fprintf (stderr, "%s: cannot create the folder\n", argv[1]);
      return 1;
    }
  air = ge_fixture_model_def (FALSE, FALSE);
  om_model = ge_fixture_model_def (TRUE, FALSE);
  om = ge_fixture_om (om_model, NULL);
  source = ge_fixture_source_model_def ();
  source_folder = g_build_filename (argv[1], "source", NULL);
  if (g_mkdir_with_parents (source_folder, 0755) != 0)
    {
      fprintf (stderr, "%s: cannot create the folder\n", source_folder);
      return 1;
    }
  if (!write_file (argv[1], "tiny_net.air", air) || !write_file (argv[1], "tiny_net.om", om) ||
      !write_file (source_folder, "tiny_net.air", source))
    return 1;
  return 0;
}
