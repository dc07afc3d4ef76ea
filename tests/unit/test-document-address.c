/* test-document-address.c: what a document shows, as a list of paths
 *
 * An address keeps its paths apart and in order (a newline inside a path
 * is part of it), travels as a GVariant `as` and back unchanged, reads a
 * one-path `s` too, refuses no path or an empty one, and names itself by
 * a key that is the path for one path and differs for every list of more.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-document-address.h"

static void
test_paths_kept_apart (void)
{
  g_autoptr(SlDocumentAddress) pair = sl_document_address_new_pair ("/runs/base", "/runs/odd\nname");
  g_autoptr(SlDocumentAddress) one = sl_document_address_new_for_path ("/runs/base");
  g_autoptr(GFile) file = sl_document_address_dup_file (pair, 1);
  g_autofree char *file_path = g_file_get_path (file);

  g_assert_cmpuint (sl_document_address_get_n_paths (pair), ==, 2);
  g_assert_cmpstr (sl_document_address_get_path (pair, 0), ==, "/runs/base");
  g_assert_cmpstr (sl_document_address_get_path (pair, 1), ==, "/runs/odd\nname");
  g_assert_null (sl_document_address_get_path (pair, 2));
  g_assert_cmpstr (file_path, ==, "/runs/odd\nname");
  g_assert_cmpuint (sl_document_address_get_n_paths (one), ==, 1);
  g_assert_false (sl_document_address_equal (pair, one));
}

static void
test_variant_round_trip (void)
{
  const char *paths[] = { "/dumps/npu", "/dumps/it's \"bench\"", "/third", NULL };
  g_autoptr(SlDocumentAddress) address = sl_document_address_new (paths);
  g_autoptr(GVariant) variant = g_variant_ref_sink (sl_document_address_to_variant (address));
  g_autoptr(SlDocumentAddress) back = sl_document_address_new_from_variant (variant);
  g_autoptr(GVariant) one_path = g_variant_ref_sink (g_variant_new_string ("/one"));
  g_autoptr(SlDocumentAddress) from_string = sl_document_address_new_from_variant (one_path);
  g_autoptr(GVariant) none = g_variant_ref_sink (g_variant_new_strv (NULL, 0));
  const char *with_empty[] = { "/a", "", NULL };
  g_autoptr(GVariant) empty = g_variant_ref_sink (g_variant_new_strv (with_empty, -1));
  g_autoptr(GVariant) number = g_variant_ref_sink (g_variant_new_int32 (3));

  g_assert_true (g_variant_is_of_type (variant, G_VARIANT_TYPE_STRING_ARRAY));
  g_assert_nonnull (back);
  g_assert_true (sl_document_address_equal (address, back));
  g_assert_cmpstrv (sl_document_address_get_paths (back), paths);

  g_assert_nonnull (from_string);
  g_assert_cmpuint (sl_document_address_get_n_paths (from_string), ==, 1);
  g_assert_cmpstr (sl_document_address_get_path (from_string, 0), ==, "/one");

  g_assert_null (sl_document_address_new_from_variant (none));
  g_assert_null (sl_document_address_new_from_variant (empty));
  g_assert_null (sl_document_address_new_from_variant (number));
}

static void
test_keys (void)
{
  g_autoptr(SlDocumentAddress) one = sl_document_address_new_for_path ("/runs/a");
  g_autoptr(SlDocumentAddress) pair = sl_document_address_new_pair ("/runs/a", "/runs/b");
  g_autoptr(SlDocumentAddress) reversed = sl_document_address_new_pair ("/runs/b", "/runs/a");
  /* What the old joined string would have made of one path with a newline. */
  g_autoptr(SlDocumentAddress) joined = sl_document_address_new_for_path ("/runs/a\n/runs/b");
  g_autofree char *one_key = sl_document_address_dup_key (one);
  g_autofree char *pair_key = sl_document_address_dup_key (pair);
  g_autofree char *reversed_key = sl_document_address_dup_key (reversed);
  g_autofree char *joined_key = sl_document_address_dup_key (joined);

  g_assert_cmpstr (one_key, ==, "/runs/a");
  g_assert_cmpstr (pair_key, ==, "['/runs/a', '/runs/b']");
  g_assert_cmpstr (reversed_key, ==, "['/runs/b', '/runs/a']");
  g_assert_cmpstr (joined_key, !=, pair_key);
  g_assert_false (sl_document_address_equal (joined, pair));
}

static void
test_boxed (void)
{
  g_autoptr(SlDocumentAddress) pair = sl_document_address_new_pair ("/a", "/b");
  SlDocumentAddress *copy = g_boxed_copy (SL_TYPE_DOCUMENT_ADDRESS, pair);

  g_assert_true (copy == pair);
  g_boxed_free (SL_TYPE_DOCUMENT_ADDRESS, copy);
  g_assert_cmpstr (sl_document_address_get_path (pair, 1), ==, "/b");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/document-address/paths-kept-apart", test_paths_kept_apart);
  g_test_add_func ("/document-address/variant-round-trip", test_variant_round_trip);
  g_test_add_func ("/document-address/keys", test_keys);
  g_test_add_func ("/document-address/boxed", test_boxed);

  return g_test_run ();
}
