/* test-trace-slices.c: the packed slice columns read back exactly at the
 * edges of their packing: durations and self times around 2^32 ns, starts
 * a block's offsets cannot reach, negative and epoch-nanosecond times,
 * args offsets above 2^32, near each other or far from their block's
 * first and at the packing's marks, other sources,
 * args lengths around 2^16, more categories than a track's palette holds,
 * empty tracks and a single slice, appended in order and reversed (which
 * packs every column a second time when the track is sorted).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib.h>

#include "sl-trace.h"

#define TWO_32 (G_GINT64_CONSTANT (1) << 32)
#define BYTE_MAX G_GUINT64_CONSTANT (0xffffffffffff)

typedef struct {
  gint64  start;
  gint64  dur;
  guint   category;   /* names "c<category>" */
  guint64 args_offset;
  guint32 args_length;
  guint   name;       /* names "s<name>": the slice's place in the spec */
  guint   order;      /* when it was added: what orders equal slices */
} Spec;

static int
compare_specs (gconstpointer a,
               gconstpointer b)
{
  const Spec *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->dur != y->dur)
    return x->dur > y->dur ? -1 : 1;
  return x->order < y->order ? -1 : (x->order > y->order);
}

/* Builds one thread track from @specs (reversed when asked) and checks
 * every field against the specs sorted as the track sorts them. */
static SlTrace *
build_and_check (Spec     *specs,
                 guint     n,
                 gboolean  reversed)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  guint track = sl_trace_builder_get_thread_track (builder, sl_trace_builder_get_process (builder, "1"), "1");
  g_autofree Spec *expected = g_memdup2 (specs, sizeof (Spec) * n);
  const SlTraceSlices *s;
  SlTrace *trace;

  for (guint k = 0; k < n; k++)
    {
      const Spec *spec = &specs[reversed ? n - 1 - k : k];
      g_autofree char *name = g_strdup_printf ("s%u", spec->name);
      g_autofree char *category = g_strdup_printf ("c%u", spec->category);

      sl_trace_builder_add_slice (builder, track, spec->start, spec->dur,
                                  sl_trace_builder_intern (builder, name, -1),
                                  sl_trace_builder_intern (builder, category, -1),
                                  SL_TRACE_SLICE_NONE, spec->args_offset, spec->args_length);
    }
  trace = sl_trace_builder_finish (builder, NULL);
  g_assert_nonnull (trace);

  for (guint k = 0; k < n; k++)
    expected[k].order = reversed ? n - 1 - k : k;
  qsort (expected, n, sizeof (Spec), compare_specs);
  s = sl_trace_get_slices (trace, 0);
  g_assert_cmpuint (s->n_slices, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", expected[i].name);
      g_autofree char *category = g_strdup_printf ("c%u", expected[i].category);

      g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)), ==, name);
      g_assert_cmpint (sl_trace_slices_start_ns (s, i), ==, expected[i].start);
      g_assert_cmpint (sl_trace_slices_dur_ns (s, i), ==, expected[i].dur);
      g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_category_id (s, i)), ==, category);
      g_assert_cmpuint (sl_trace_slices_args_offset (s, i), ==, expected[i].args_offset);
      g_assert_cmpuint (sl_trace_slices_args_length (s, i), ==, expected[i].args_length);
      g_assert_cmpuint (sl_trace_slices_flags (s, i), ==, SL_TRACE_SLICE_NONE);
    }
  return trace;
}

/* One after another, so nothing nests and every self time is its duration. */
static void
test_durations (void)
{
  static const gint64 durs[] = {
    0, 1, TWO_32 - 2, TWO_32 - 1, TWO_32, TWO_32 + 1, 3, G_GINT64_CONSTANT (1) << 40,
    G_MAXINT32, (gint64) G_MAXINT32 + 1, 7, TWO_32 * 3 + 5, 0, TWO_32 - 1,
  };
  Spec specs[G_N_ELEMENTS (durs) * 20];
  gint64 start = G_GINT64_CONSTANT (1700000000000000000);

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      gint64 dur = durs[i % G_N_ELEMENTS (durs)];

      specs[i] = (Spec) { start, dur, 0, SL_TRACE_ARGS_OFFSET (0, i * 100), 90, i };
      start += dur + 1;
    }

  for (int reversed = 0; reversed < 2; reversed++)
    {
      g_autoptr(SlTrace) trace = build_and_check (specs, G_N_ELEMENTS (specs), reversed);
      const SlTraceSlices *s = sl_trace_get_slices (trace, 0);

      for (guint i = 0; i < s->n_slices; i++)
        {
          g_assert_cmpint (sl_trace_slices_self_ns (s, i), ==, sl_trace_slices_dur_ns (s, i));
          g_assert_cmpuint (sl_trace_slices_parent (s, i), ==, SL_TRACE_NO_PARENT);
          g_assert_cmpuint (sl_trace_slices_depth (s, i), ==, 0);
        }
    }
}

static guint
slice_named (SlTrace             *trace,
             const SlTraceSlices *s,
             const char          *name)
{
  for (guint i = 0; i < s->n_slices; i++)
    if (g_str_equal (sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)), name))
      return i;
  g_assert_not_reached ();
  return 0;
}

/* Self time of a parent too long for 32 bits loses its children exactly,
 * and one that fits loses a child too long for it down to zero. */
static void
test_self_time (void)
{
  Spec specs[] = {
    { 0, TWO_32 * 2, 0, 0, 0, 0 },                      /* s0 */
    { 10, TWO_32 + 5, 0, 0, 0, 1 },                     /* s1 in s0 */
    { TWO_32 + 100, 1000, 0, 0, 0, 2 },                 /* s2 in s0 */
    { TWO_32 * 3, TWO_32 + 10, 0, 0, 0, 3 },            /* s3 */
    { TWO_32 * 3 + 1, 20, 0, 0, 0, 4 },                 /* s4 in s3 */
    { TWO_32 * 5, TWO_32 - 2, 0, 0, 0, 5 },             /* s5 */
    { TWO_32 * 5, TWO_32 - 3, 0, 0, 0, 6 },             /* s6 in s5 */
  };

  for (int reversed = 0; reversed < 2; reversed++)
    {
      g_autoptr(SlTrace) trace = build_and_check (specs, G_N_ELEMENTS (specs), reversed);
      const SlTraceSlices *s = sl_trace_get_slices (trace, 0);

      g_assert_cmpint (sl_trace_slices_self_ns (s, slice_named (trace, s, "s0")), ==, TWO_32 * 2 - (TWO_32 + 5) - 1000);
      g_assert_cmpint (sl_trace_slices_self_ns (s, slice_named (trace, s, "s1")), ==, TWO_32 + 5);
      g_assert_cmpuint (sl_trace_slices_parent (s, slice_named (trace, s, "s2")), ==, slice_named (trace, s, "s0"));
      g_assert_cmpint (sl_trace_slices_self_ns (s, slice_named (trace, s, "s3")), ==, TWO_32 - 10);
      g_assert_cmpint (sl_trace_slices_self_ns (s, slice_named (trace, s, "s5")), ==, 1);
      g_assert_cmpint (sl_trace_slices_self_ns (s, slice_named (trace, s, "s6")), ==, TWO_32 - 3);
      g_assert_cmpuint (sl_trace_slices_depth (s, slice_named (trace, s, "s6")), ==, 1);
    }
}

/* Starts more than 2^31 ns apart inside one block of 128, negative,
 * epoch nanoseconds and the ends of the 64-bit range. */
static void
test_starts (void)
{
  static const gint64 edges[] = {
    0, 1, -1, G_MAXINT32, (gint64) G_MAXINT32 + 1, G_MININT32, (gint64) G_MININT32 - 1,
    TWO_32, -TWO_32, G_GINT64_CONSTANT (1700000000123456789), G_GINT64_CONSTANT (-1700000000123456789),
    G_MININT64, G_MININT64 + 1, G_MAXINT64 - 1, G_MAXINT64,
  };
  Spec specs[600];

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      gint64 start;

      if (i % 4 == 0)
        {
          gint64 edge = edges[(i / 4) % G_N_ELEMENTS (edges)];
          gint64 step = i < 300 ? 0 : (gint64) (i % 7);

          /* beside the edge, on the side that stays in range */
          start = edge > G_MAXINT64 - step ? edge - step : edge + step;
        }
      else
        start = G_GINT64_CONSTANT (1700000000000000000) + (gint64) i * 3000;
      if (start < G_MININT64 + 10 && i >= 300)
        start = G_MININT64;
      specs[i] = (Spec) { start, 0, 0, SL_TRACE_NO_ARGS, 0, i };
    }

  for (int reversed = 0; reversed < 2; reversed++)
    {
      g_autoptr(SlTrace) trace = build_and_check (specs, G_N_ELEMENTS (specs), reversed);

      g_assert_cmpint (sl_trace_get_start_ns (trace), ==, G_MININT64);
      g_assert_cmpint (sl_trace_get_end_ns (trace), ==, G_MAXINT64);
    }
}

/* Byte offsets above 2^32 and at the 48-bit marks, other sources, none,
 * near or far from their block's first; lengths around 2^16 up to the
 * largest. */
static void
test_args (void)
{
  static const guint64 offsets[] = {
    0, 1, TWO_32 - 1, TWO_32, TWO_32 + 7, BYTE_MAX - 2, BYTE_MAX - 1, BYTE_MAX,
    SL_TRACE_ARGS_OFFSET (3, 12), SL_TRACE_ARGS_OFFSET (3, BYTE_MAX), SL_TRACE_ARGS_OFFSET (65535, 5),
    SL_TRACE_ARGS_OFFSET (65535, BYTE_MAX - 1), SL_TRACE_NO_ARGS,
  };
  static const guint32 lengths[] = {
    0, 1, G_MAXUINT16 - 1, G_MAXUINT16, G_MAXUINT16 + 1, G_MAXINT32, G_MAXUINT32 - 1, G_MAXUINT32,
  };
  Spec specs[400];

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    specs[i] = (Spec) { (gint64) i * 10, 5, 0, offsets[i % G_N_ELEMENTS (offsets)],
                        lengths[i % G_N_ELEMENTS (lengths)], i };

  for (int reversed = 0; reversed < 2; reversed++)
    g_object_unref (build_and_check (specs, G_N_ELEMENTS (specs), reversed));

  /* a track whose first slice has no args, and one from another source */
  specs[0].args_offset = SL_TRACE_NO_ARGS;
  specs[1].args_offset = SL_TRACE_ARGS_OFFSET (9, 1);
  for (int reversed = 0; reversed < 2; reversed++)
    g_object_unref (build_and_check (specs, G_N_ELEMENTS (specs), reversed));

  /* a file of gigabytes: offsets near each other past 2^32 (before their
   * block's first when reversed), a block's differences at 2^31 and
   * beyond, and one far back */
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    specs[i] = (Spec) { (gint64) i * 10, 5, 0, SL_TRACE_ARGS_OFFSET (1, TWO_32 * 5 + i * 150), 150, i };
  specs[150].args_offset = SL_TRACE_ARGS_OFFSET (1, TWO_32 * 5 + 128 * 150 + G_MAXINT32);
  specs[151].args_offset = SL_TRACE_ARGS_OFFSET (1, TWO_32 * 5 + 128 * 150 + G_MAXINT32 + 1);
  specs[152].args_offset = SL_TRACE_ARGS_OFFSET (1, TWO_32 * 5 + 128 * 150 - G_MAXINT32 + 1);
  specs[153].args_offset = SL_TRACE_ARGS_OFFSET (1, TWO_32 * 5 + 128 * 150 - G_MAXINT32);
  specs[300].args_offset = SL_TRACE_ARGS_OFFSET (1, 3);
  for (int reversed = 0; reversed < 2; reversed++)
    g_object_unref (build_and_check (specs, G_N_ELEMENTS (specs), reversed));
}

/* More categories than the palette's 255 codes; the rest are escaped. */
static void
test_categories (void)
{
  Spec specs[700];

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    specs[i] = (Spec) { (gint64) i * 10, 5, i < 400 ? i : i % 13, SL_TRACE_ARGS_OFFSET (0, i), 1, i };

  for (int reversed = 0; reversed < 2; reversed++)
    g_object_unref (build_and_check (specs, G_N_ELEMENTS (specs), reversed));
}

static void
test_empty_and_one (void)
{
  SlTraceBuilder *builder = sl_trace_builder_new ("test");
  guint process = sl_trace_builder_get_process (builder, "1");
  guint empty = sl_trace_builder_get_thread_track (builder, process, "1");
  guint one = sl_trace_builder_get_thread_track (builder, process, "2");
  g_autoptr(SlTrace) trace = NULL;
  const SlTraceSlices *s;

  g_assert_cmpuint (empty, ==, 0);
  sl_trace_builder_add_slice (builder, one, -TWO_32 * 9, TWO_32 * 7, sl_trace_builder_intern (builder, "only", -1),
                              sl_trace_builder_intern (builder, "cat", -1), SL_TRACE_SLICE_INSTANT,
                              SL_TRACE_ARGS_OFFSET (2, TWO_32 * 1000), G_MAXUINT32);
  trace = sl_trace_builder_finish (builder, NULL);

  s = sl_trace_get_slices (trace, 0);
  g_assert_cmpuint (s->n_slices, ==, 0);
  g_assert_cmpuint (sl_trace_get_track_n_depths (trace, 0), ==, 0);
  g_assert_cmpuint (sl_trace_find_enclosing_slice (trace, 0, 0), ==, SL_TRACE_NO_PARENT);

  s = sl_trace_get_slices (trace, 1);
  g_assert_cmpuint (s->n_slices, ==, 1);
  g_assert_cmpint (sl_trace_slices_start_ns (s, 0), ==, -TWO_32 * 9);
  g_assert_cmpint (sl_trace_slices_dur_ns (s, 0), ==, TWO_32 * 7);
  g_assert_cmpint (sl_trace_slices_self_ns (s, 0), ==, TWO_32 * 7);
  g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_name_id (s, 0)), ==, "only");
  g_assert_cmpstr (sl_trace_get_string (trace, sl_trace_slices_category_id (s, 0)), ==, "cat");
  g_assert_cmpuint (sl_trace_slices_parent (s, 0), ==, SL_TRACE_NO_PARENT);
  g_assert_cmpuint (sl_trace_slices_depth (s, 0), ==, 0);
  g_assert_cmpuint (sl_trace_slices_flags (s, 0), ==, SL_TRACE_SLICE_INSTANT);
  g_assert_cmpuint (sl_trace_slices_args_offset (s, 0), ==, SL_TRACE_ARGS_OFFSET (2, TWO_32 * 1000));
  g_assert_cmpuint (sl_trace_slices_args_length (s, 0), ==, G_MAXUINT32);
  g_assert_cmpuint (sl_trace_find_enclosing_slice (trace, 1, -TWO_32 * 5), ==, 0);
  g_assert_cmpuint (sl_trace_find_enclosing_slice (trace, 1, -TWO_32 * 2 + 1), ==, SL_TRACE_NO_PARENT);
}

int
main (int    argc,
      char  *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/slices/durations", test_durations);
  g_test_add_func ("/trace/slices/self-time", test_self_time);
  g_test_add_func ("/trace/slices/starts", test_starts);
  g_test_add_func ("/trace/slices/args", test_args);
  g_test_add_func ("/trace/slices/categories", test_categories);
  g_test_add_func ("/trace/slices/empty-and-one", test_empty_and_one);
  return g_test_run ();
}
