/* test-op-names.c: the ops a link names match as written, or by the last
 * part of a MindSpore full name, and nothing else
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-op-names.h"

static void
test_exact_and_scoped (void)
{
  const char *names[] = { "Default/net/dense2-Dense/MatMul-op4", "aten::matmul", "", NULL };
  g_autoptr(SlOpNames) set = sl_op_names_new (names);

  g_assert_cmpuint (sl_op_names_get_size (set), ==, 2);
  /* As written, and the timeline's short name of a full name */
  g_assert_true (sl_op_names_contains (set, "Default/net/dense2-Dense/MatMul-op4"));
  g_assert_true (sl_op_names_contains (set, "MatMul-op4"));
  g_assert_true (sl_op_names_contains (set, "aten::matmul"));
  /* A scoped slice of an op named without its scope */
  g_assert_true (sl_op_names_contains (set, "Model/aten::matmul"));

  /* Not a piece of a name, not another op's number, not another case */
  g_assert_false (sl_op_names_contains (set, "MatMul-op41"));
  g_assert_false (sl_op_names_contains (set, "MatMul-op"));
  g_assert_false (sl_op_names_contains (set, "matmul-op4"));
  g_assert_false (sl_op_names_contains (set, "Default/other/MatMul-op4"));
  g_assert_false (sl_op_names_contains (set, "aten::matmul_backward"));
  g_assert_false (sl_op_names_contains (set, ""));
  g_assert_false (sl_op_names_contains (set, NULL));
  g_assert_false (sl_op_names_contains (set, "Default/"));
}

static void
test_special_characters (void)
{
  const char *names[] = { "a.*b", "x[0]+(y)?", "^$|\\", NULL };
  g_autoptr(SlOpNames) set = sl_op_names_new (names);
  g_autoptr(SlOpNames) none = sl_op_names_new (NULL);

  /* No character has a meaning of its own */
  g_assert_true (sl_op_names_contains (set, "a.*b"));
  g_assert_false (sl_op_names_contains (set, "aXXb"));
  g_assert_true (sl_op_names_contains (set, "x[0]+(y)?"));
  g_assert_false (sl_op_names_contains (set, "x0y"));
  g_assert_true (sl_op_names_contains (set, "^$|\\"));
  g_assert_false (sl_op_names_contains (set, ""));

  g_assert_cmpuint (sl_op_names_get_size (none), ==, 0);
  g_assert_false (sl_op_names_contains (none, "a.*b"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/op-names/exact-and-scoped", test_exact_and_scoped);
  g_test_add_func ("/op-names/special-characters", test_special_characters);
  return g_test_run ();
}
