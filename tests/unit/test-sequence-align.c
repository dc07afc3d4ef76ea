/* test-sequence-align.c: aligning two op sequences
 *
 * Small cases with the alignment worked out by hand (empty sides,
 * identical, nothing in common, one op inserted or deleted at the start,
 * middle and end, Myers' own example, a repeated op where pairing the k-th
 * occurrences goes wrong); thousands of random pairs of up to 300 ops
 * whose match count must be the O(N·M) table's, with every pair in order
 * on both sides and on equal keys; two 1,000,000-op runs 1% apart with a
 * known answer; the fallbacks on sequences too far apart for the budget,
 * and the key count that skips a search that cannot fit;
 * progress and cancellation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>

#include "sl-sequence-align.h"

/* Keys that never occur in the generated layer streams. */
#define FRESH_KEY_BASE 1000000u

static SlSequenceAlign *
align_keys (const guint32 *a,
            guint          n,
            const guint32 *b,
            guint          m,
            guint64        max_work)
{
  SlSequenceAlignInput input = { a, n, b, m, max_work };
  g_autoptr(GError) error = NULL;
  SlSequenceAlign *result = sl_sequence_align_compute (&input, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* Every result, exact or not: a common subsequence, the counts agree,
 * and the hunks are exactly the ops between the pairs. */
static void
check_alignment (SlSequenceAlign *result,
                 const guint32   *a,
                 guint            n,
                 const guint32   *b,
                 guint            m)
{
  guint32 next_a = 0, next_b = 0;
  guint64 hunk_a = 0, hunk_b = 0;
  gsize h = 0;

  g_assert_cmpuint (result->matched, ==, result->n_pairs);
  g_assert_cmpuint (result->only_base, ==, n - result->matched);
  g_assert_cmpuint (result->only_comparison, ==, m - result->matched);
  g_assert_cmpuint (result->distance, ==, result->only_base + result->only_comparison);

  for (gsize k = 0; k <= result->n_pairs; k++)
    {
      guint32 i = k < result->n_pairs ? result->pairs[k].base : n;
      guint32 j = k < result->n_pairs ? result->pairs[k].comparison : m;

      if (k < result->n_pairs)
        {
          g_assert_cmpuint (i, <, n);
          g_assert_cmpuint (j, <, m);
          g_assert_cmpuint (a[i], ==, b[j]);
        }
      g_assert_cmpuint (i, >=, next_a);
      g_assert_cmpuint (j, >=, next_b);
      if (i > next_a || j > next_b)
        {
          const SlSequenceAlignHunk *hunk;

          g_assert_cmpuint (h, <, result->n_hunks);
          hunk = &result->hunks[h++];
          g_assert_cmpuint (hunk->base_start, ==, next_a);
          g_assert_cmpuint (hunk->n_base, ==, i - next_a);
          g_assert_cmpuint (hunk->comparison_start, ==, next_b);
          g_assert_cmpuint (hunk->n_comparison, ==, j - next_b);
          hunk_a += hunk->n_base;
          hunk_b += hunk->n_comparison;
        }
      next_a = i + 1;
      next_b = j + 1;
    }
  g_assert_cmpuint (h, ==, result->n_hunks);
  g_assert_cmpuint (hunk_a, ==, result->only_base);
  g_assert_cmpuint (hunk_b, ==, result->only_comparison);
}

/* The textbook table, two rows at a time. */
static guint
dp_lcs_length (const guint32 *a,
               guint          n,
               const guint32 *b,
               guint          m)
{
  g_autofree guint *prev = g_new0 (guint, m + 1);
  g_autofree guint *row = g_new0 (guint, m + 1);

  for (guint i = 1; i <= n; i++)
    {
      guint *swap;

      row[0] = 0;
      for (guint j = 1; j <= m; j++)
        row[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : MAX (prev[j], row[j - 1]);
      swap = prev;
      prev = row;
      row = swap;
    }
  return prev[m];
}

static guint32 *
keys_of (const char *text)
{
  gsize n = strlen (text);
  guint32 *keys = g_new (guint32, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    keys[i] = (guchar)text[i];
  return keys;
}

/* Aligns two strings (one char, one key) and checks it against the
 * expected pairs, written "base:comparison" separated by spaces. */
static SlSequenceAlign *
align_text (const char *base,
            const char *comparison,
            const char *expected_pairs)
{
  g_autofree guint32 *a = keys_of (base);
  g_autofree guint32 *b = keys_of (comparison);
  SlSequenceAlign *result = align_keys (a, strlen (base), b, strlen (comparison), 0);
  g_auto(GStrv) expected = g_strsplit (expected_pairs, " ", -1);
  guint n_expected = expected_pairs[0] == '\0' ? 0 : g_strv_length (expected);

  check_alignment (result, a, strlen (base), b, strlen (comparison));
  g_assert_cmpint (result->method, ==, SL_SEQUENCE_ALIGN_EXACT);
  g_assert_cmpuint (result->n_pairs, ==, n_expected);
  for (guint k = 0; k < n_expected; k++)
    {
      g_autofree char *got = g_strdup_printf ("%u:%u", result->pairs[k].base, result->pairs[k].comparison);

      g_assert_cmpstr (got, ==, expected[k]);
    }
  return result;
}

static void
assert_hunk (SlSequenceAlign *result,
             gsize            index,
             guint32          base_start,
             guint32          n_base,
             guint32          comparison_start,
             guint32          n_comparison)
{
  g_assert_cmpuint (index, <, result->n_hunks);
  g_assert_cmpuint (result->hunks[index].base_start, ==, base_start);
  g_assert_cmpuint (result->hunks[index].n_base, ==, n_base);
  g_assert_cmpuint (result->hunks[index].comparison_start, ==, comparison_start);
  g_assert_cmpuint (result->hunks[index].n_comparison, ==, n_comparison);
}

static void
test_empty_and_identical (void)
{
  g_autoptr(SlSequenceAlign) empty = align_text ("", "", "");
  g_autoptr(SlSequenceAlign) only_comparison = align_text ("", "abc", "");
  g_autoptr(SlSequenceAlign) only_base = align_text ("ab", "", "");
  g_autoptr(SlSequenceAlign) same = align_text ("abcab", "abcab", "0:0 1:1 2:2 3:3 4:4");
  g_autoptr(SlSequenceAlign) disjoint = align_text ("abc", "xyz", "");

  g_assert_cmpuint (empty->n_hunks, ==, 0);
  g_assert_cmpuint (empty->distance, ==, 0);
  g_assert_cmpuint (only_comparison->n_hunks, ==, 1);
  assert_hunk (only_comparison, 0, 0, 0, 0, 3);
  g_assert_cmpuint (only_comparison->distance, ==, 3);
  assert_hunk (only_base, 0, 0, 2, 0, 0);
  g_assert_cmpuint (only_base->only_base, ==, 2);
  g_assert_cmpuint (same->n_hunks, ==, 0);
  g_assert_cmpuint (same->distance, ==, 0);
  g_assert_cmpuint (disjoint->n_hunks, ==, 1);
  assert_hunk (disjoint, 0, 0, 3, 0, 3);
  g_assert_cmpuint (disjoint->distance, ==, 6);
}

static void
test_one_edit (void)
{
  g_autoptr(SlSequenceAlign) insert_start = align_text ("bcd", "abcd", "0:1 1:2 2:3");
  g_autoptr(SlSequenceAlign) insert_middle = align_text ("abde", "abcde", "0:0 1:1 2:3 3:4");
  g_autoptr(SlSequenceAlign) insert_end = align_text ("abc", "abcd", "0:0 1:1 2:2");
  g_autoptr(SlSequenceAlign) delete_start = align_text ("abcd", "bcd", "1:0 2:1 3:2");
  g_autoptr(SlSequenceAlign) delete_middle = align_text ("abcde", "abde", "0:0 1:1 3:2 4:3");
  g_autoptr(SlSequenceAlign) delete_end = align_text ("abcd", "abc", "0:0 1:1 2:2");
  g_autoptr(SlSequenceAlign) replace = align_text ("abcde", "abxde", "0:0 1:1 3:3 4:4");

  assert_hunk (insert_start, 0, 0, 0, 0, 1);
  assert_hunk (insert_middle, 0, 2, 0, 2, 1);
  assert_hunk (insert_end, 0, 3, 0, 3, 1);
  assert_hunk (delete_start, 0, 0, 1, 0, 0);
  assert_hunk (delete_middle, 0, 2, 1, 2, 0);
  assert_hunk (delete_end, 0, 3, 1, 3, 0);
  assert_hunk (replace, 0, 2, 1, 2, 1);
  g_assert_cmpuint (insert_middle->distance, ==, 1);
  g_assert_cmpuint (replace->distance, ==, 2);
}

/* The example of Myers' paper: D = 5, LCS of 4. */
static void
test_myers_example (void)
{
  g_autofree guint32 *a = keys_of ("abcabba");
  g_autofree guint32 *b = keys_of ("cbabac");
  g_autoptr(SlSequenceAlign) result = align_keys (a, 7, b, 6, 0);

  check_alignment (result, a, 7, b, 6);
  g_assert_cmpuint (result->matched, ==, 4);
  g_assert_cmpuint (result->distance, ==, 5);
}

/* The baseline runs an extra Cast first. Pairing the k-th occurrence of
 * each op (MindStudio Insight) pairs the baseline's first Cast with the
 * comparison's only one and crosses the MatMul pair; the LCS shifts the
 * whole run by one. Keys c = Cast, m = MatMul, a = Add. */
static void
test_repeated_keys (void)
{
  g_autoptr(SlSequenceAlign) extra_cast = align_text ("cmcacm", "mcacm", "1:0 2:1 3:2 4:3 5:4");
  g_autoptr(SlSequenceAlign) swapped = align_text ("aba", "ba", "1:0 2:1");
  g_autoptr(SlSequenceAlign) layers = align_text ("xyzxyzxyz", "xyzxyz", "0:0 1:1 2:2 3:3 4:4 5:5");

  assert_hunk (extra_cast, 0, 0, 1, 0, 0);
  g_assert_cmpuint (extra_cast->n_hunks, ==, 1);
  assert_hunk (swapped, 0, 0, 1, 0, 0);
  /* One layer less: one hunk of three, not three of one. */
  g_assert_cmpuint (layers->n_hunks, ==, 1);
  assert_hunk (layers, 0, 6, 3, 6, 0);
}

static guint32 *
random_keys (GRand *rand,
             guint  n,
             guint  n_keys)
{
  guint32 *keys = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    keys[i] = g_rand_int_range (rand, 0, n_keys);
  return keys;
}

/* @a with random edits, each inserting, deleting or replacing an op by
 * one of @n_keys keys. */
static guint32 *
edited_copy (GRand         *rand,
             const guint32 *a,
             guint          n,
             double         rate,
             guint          n_keys,
             guint         *m)
{
  GArray *b = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i <= n; i++)
    {
      gboolean edit = g_rand_double (rand) < rate;
      int what = edit ? g_rand_int_range (rand, 0, 3) : -1;
      guint32 key = g_rand_int_range (rand, 0, n_keys);

      if (what == 0 || (edit && i == n))
        g_array_append_val (b, key);
      if (i == n)
        break;
      if (what == 2)
        g_array_append_val (b, key);
      else if (what != 1)
        g_array_append_val (b, a[i]);
    }
  *m = b->len;
  return (guint32 *)(gpointer)g_array_free (b, FALSE);
}

static void
test_random_against_table (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);
  static const guint alphabets[] = { 1, 2, 4, 16, 300 };
  guint n_fallbacks = 0;

  for (guint t = 0; t < 3000; t++)
    {
      guint n_keys = alphabets[t % G_N_ELEMENTS (alphabets)];
      guint n = g_rand_int_range (rand, 0, t % 10 == 0 ? 8 : 301);
      g_autofree guint32 *a = random_keys (rand, n, n_keys);
      g_autofree guint32 *b = NULL;
      guint m, expected;

      /* Half unrelated, half an edited copy. */
      if (t % 2 == 0)
        {
          m = g_rand_int_range (rand, 0, t % 10 == 0 ? 8 : 301);
          b = random_keys (rand, m, n_keys);
        }
      else
        b = edited_copy (rand, a, n, g_rand_double_range (rand, 0, 0.3), n_keys, &m);
      expected = dp_lcs_length (a, n, b, m);

      {
        g_autoptr(SlSequenceAlign) exact = align_keys (a, n, b, m, G_MAXUINT64);

        check_alignment (exact, a, n, b, m);
        g_assert_cmpint (exact->method, ==, SL_SEQUENCE_ALIGN_EXACT);
        g_assert_cmpuint (exact->matched, ==, expected);
      }

      /* A tiny budget: whatever comes out is a common subsequence, and
       * exactly the longest when it says exact. */
      {
        g_autoptr(SlSequenceAlign) bounded = align_keys (a, n, b, m, 1 + t % 50);

        check_alignment (bounded, a, n, b, m);
        g_assert_cmpuint (bounded->matched, <=, expected);
        if (bounded->method == SL_SEQUENCE_ALIGN_EXACT)
          g_assert_cmpuint (bounded->matched, ==, expected);
        else
          n_fallbacks++;
      }
    }
  g_assert_cmpuint (n_fallbacks, >, 100);
}

/* A transformer-like stream: @n ops of layers of 60 ops drawn from 300
 * keys, the same 60 in every layer. */
static guint32 *
layer_stream (GRand *rand,
              guint  n)
{
  guint32 pattern[60];
  guint32 *keys = g_new (guint32, n);

  for (guint k = 0; k < G_N_ELEMENTS (pattern); k++)
    pattern[k] = g_rand_int_range (rand, 0, 300);
  for (guint i = 0; i < n; i++)
    keys[i] = pattern[i % G_N_ELEMENTS (pattern)];
  return keys;
}

/* Edits with keys that occur nowhere else, so the LCS is known: every op
 * of the baseline that was neither deleted nor replaced. */
static guint32 *
fresh_edits (GRand         *rand,
             const guint32 *a,
             guint          n,
             double         rate,
             guint         *m,
             guint         *n_deleted,
             guint         *n_inserted,
             guint         *n_replaced)
{
  GArray *b = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n + n / 50);
  guint32 fresh = FRESH_KEY_BASE;

  *n_deleted = *n_inserted = *n_replaced = 0;
  for (guint i = 0; i < n; i++)
    {
      int what = g_rand_double (rand) < rate ? g_rand_int_range (rand, 0, 3) : -1;

      if (what == 0)
        {
          g_array_append_val (b, fresh);
          fresh++;
          g_array_append_val (b, a[i]);
          (*n_inserted)++;
        }
      else if (what == 1)
        (*n_deleted)++;
      else if (what == 2)
        {
          g_array_append_val (b, fresh);
          fresh++;
          (*n_replaced)++;
        }
      else
        g_array_append_val (b, a[i]);
    }
  *m = b->len;
  return (guint32 *)(gpointer)g_array_free (b, FALSE);
}

static void
test_million_one_percent (void)
{
  const guint n = 1000000;
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autofree guint32 *a = layer_stream (rand, n);
  g_autofree guint32 *b = NULL;
  g_autoptr(SlSequenceAlign) result = NULL;
  guint m, deleted, inserted, replaced;

  b = fresh_edits (rand, a, n, 0.01, &m, &deleted, &inserted, &replaced);
  result = align_keys (a, n, b, m, 0);
  check_alignment (result, a, n, b, m);
  g_assert_cmpint (result->method, ==, SL_SEQUENCE_ALIGN_EXACT);
  g_assert_cmpuint (result->matched, ==, n - deleted - replaced);
  g_assert_cmpuint (result->distance, ==, deleted + inserted + 2 * replaced);
  g_test_message ("%u edits, %" G_GUINT64_FORMAT " cells", deleted + inserted + replaced, result->work);
}

static void
test_fallbacks (void)
{
  const guint n = 200000;
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autofree guint32 *a = random_keys (rand, n, 300);
  g_autofree guint32 *b = random_keys (rand, n, 300);
  g_autofree guint32 *layers = layer_stream (rand, n);
  g_autofree guint32 *edited = NULL;
  guint m, deleted, inserted, replaced;

  /* Unrelated, and no key occurs once: the greedy cut. */
  {
    g_autoptr(SlSequenceAlign) result = align_keys (a, n, b, n, 1000000);

    check_alignment (result, a, n, b, n);
    g_assert_cmpint (result->method, ==, SL_SEQUENCE_ALIGN_GREEDY);
    g_assert_cmpstr (sl_sequence_align_method_to_string (result->method), ==, "greedy");
    g_assert_cmpuint (result->exact_work, <=, 1000000 + 2 * n);
    /* Random sequences over 300 keys share about a tenth. */
    g_assert_cmpuint (result->matched, >, n / 20);
  }

  /* Unrelated with other key counts: the counts alone prove the exact
   * search cannot fit the default budget, so it is not even started. */
  {
    g_autofree guint32 *other = layer_stream (rand, n);
    g_autoptr(SlSequenceAlign) result = align_keys (other, n, b, n, 0);

    check_alignment (result, other, n, b, n);
    g_assert_cmpint (result->method, ==, SL_SEQUENCE_ALIGN_GREEDY);
    g_assert_cmpuint (result->exact_work, ==, 0);
  }

  /* 1% apart with a marker op every 1,000 (keys far above the rest, so
   * they are renumbered): the budget runs out at once, the markers and
   * other keys unique on both sides anchor, every gap is exact, and here
   * that is still the longest. */
  for (guint i = 0; i < n; i += 1000)
    layers[i] = 0x80000000u + i;
  edited = fresh_edits (rand, layers, n, 0.01, &m, &deleted, &inserted, &replaced);
  {
    g_autoptr(SlSequenceAlign) result = align_keys (layers, n, edited, m, 1000);

    check_alignment (result, layers, n, edited, m);
    g_assert_cmpint (result->method, ==, SL_SEQUENCE_ALIGN_ANCHORED);
    g_assert_cmpstr (sl_sequence_align_method_to_string (result->method), ==, "anchored");
    g_assert_cmpuint (result->matched, ==, n - deleted - replaced);
  }
}

static void
record_progress (double   fraction,
                 gpointer user_data)
{
  GArray *seen = user_data;

  if (seen->len > 0)
    g_assert_cmpfloat (fraction, >=, g_array_index (seen, double, seen->len - 1));
  g_array_append_val (seen, fraction);
}

static void
cancel_on_progress (double   fraction,
                    gpointer user_data)
{
  if (fraction > 0)
    g_cancellable_cancel (user_data);
}

static void
test_cancel_and_progress (void)
{
  const guint n = 300000;
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autofree guint32 *a = layer_stream (rand, n);
  g_autofree guint32 *b = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) mid_run = g_cancellable_new ();
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlSequenceAlign) done = NULL;
  SlSequenceAlign *result;
  SlSequenceAlignInput input;
  guint m, deleted, inserted, replaced;

  b = fresh_edits (rand, a, n, 0.01, &m, &deleted, &inserted, &replaced);
  input = (SlSequenceAlignInput) { a, n, b, m, 0 };

  g_cancellable_cancel (cancellable);
  result = sl_sequence_align_compute (&input, cancellable, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  result = sl_sequence_align_compute (&input, mid_run, cancel_on_progress, mid_run, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  done = sl_sequence_align_compute (&input, NULL, record_progress, seen, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seen->len, >, 10);
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);
  g_assert_cmpuint (done->matched, ==, n - deleted - replaced);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sequence-align/empty-and-identical", test_empty_and_identical);
  g_test_add_func ("/sequence-align/one-edit", test_one_edit);
  g_test_add_func ("/sequence-align/myers-example", test_myers_example);
  g_test_add_func ("/sequence-align/repeated-keys", test_repeated_keys);
  g_test_add_func ("/sequence-align/random-against-table", test_random_against_table);
  g_test_add_func ("/sequence-align/million-one-percent", test_million_one_percent);
  g_test_add_func ("/sequence-align/fallbacks", test_fallbacks);
  g_test_add_func ("/sequence-align/cancel-and-progress", test_cancel_and_progress);

  return g_test_run ();
}
