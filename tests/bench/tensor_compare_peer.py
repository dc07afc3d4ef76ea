#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer of bench-tensor-compare: the accuracy metrics of two .npy
files computed with numpy, the way msprobe (cosine, Euclidean distance,
absolute and relative errors, error ratios) and the CANN compare tool
(relative Euclidean distance, RMSE, mean and accumulated relative error,
KL divergence, mean and standard deviation) compute them.

Usage: tensor_compare_peer.py NPU.npy BENCH.npy [RUNS]
Prints JSON: the metrics under sightline-cli compare-tensors' keys,
seconds and processor_seconds (medians of RUNS, loading included),
peak_rss_bytes, and kl_reference: the KL divergence again in long
double, untimed, to say which of two differing results is the nearer.
"""
import json
import resource
import statistics
import sys
import time

import numpy as np

EPS = np.finfo(np.float64).eps


def relative_error(n, b):
    # msprobe: at least float32; epsilon added to both where b == 0
    dtype = np.result_type(n, b, np.float32)
    if not np.issubdtype(b.dtype, np.floating):
        dtype = np.float64
    n = n.astype(dtype)
    b = b.astype(dtype)
    zero = b == 0
    eps = np.finfo(dtype).eps
    b[zero] += eps
    n[zero] += eps
    return np.abs((n - b) / b)


def kl_divergence(n, b):
    def normalise(x):
        lo, hi = x.min(), x.max()
        if hi != lo:
            x = (x - lo) / (hi - lo)
        x = np.maximum(x, np.finfo(np.float32).eps)
        return x / x.sum()
    p, q = normalise(n), normalise(b)
    kl = float(np.sum(p * np.log(p / q)))
    return 0.0 if abs(kl) < EPS else kl


def kl_reference(npu_path, bench_path, chunk=1 << 24):
    """Σ P log(P/Q) as Σ Q h(d), d = (P - Q) / Q, h(d) = (1 + d) log1p(d) - d,
    in long double: equal since Σ P = Σ Q = 1, but without the direct
    form's error from the rounded P and Q summing to 1 only nearly, which
    is as large as a good tensor's divergence."""
    wide = np.longdouble
    n = np.load(npu_path, mmap_mode='r').ravel(order='K')
    b = np.load(bench_path, mmap_mode='r').ravel(order='K')
    floor = wide(np.finfo(np.float32).eps)
    n_lo, n_hi, b_lo, b_hi = (wide(v) for v in (n.min(), n.max(), b.min(), b.max()))

    def weights(x, lo, hi):
        x = x.astype(wide)
        if hi != lo:
            x = (x - lo) / (hi - lo)
        return np.maximum(x, floor)

    sp = sq = wide(0)
    for i in range(0, n.size, chunk):
        sp += weights(n[i:i + chunk], n_lo, n_hi).sum()
        sq += weights(b[i:i + chunk], b_lo, b_hi).sum()
    kl = wide(0)
    for i in range(0, n.size, chunk):
        p = weights(n[i:i + chunk], n_lo, n_hi) / sp
        q = weights(b[i:i + chunk], b_lo, b_hi) / sq
        d = (p - q) / q
        kl += (q * ((1 + d) * np.log1p(d) - d)).sum()
    return float(kl)


def metrics(npu_path, bench_path):
    n_raw = np.load(npu_path, mmap_mode='r')
    b_raw = np.load(bench_path, mmap_mode='r')
    n = np.asarray(n_raw, dtype=np.float64).ravel(order='K')
    b = np.asarray(b_raw, dtype=np.float64).ravel(order='K')
    diff = n - b
    abs_diff = np.abs(diff)
    d2 = float(np.dot(diff, diff))
    bb = float(np.dot(b, b))
    nn = float(np.dot(n, n))
    norm_n, norm_b = np.sqrt(nn), np.sqrt(bb)
    if norm_n <= EPS and norm_b <= EPS:
        cosine = 1.0
    elif norm_n <= EPS or norm_b <= EPS or n.size == 1:
        cosine = None
    else:
        cosine = float(np.dot(n, b)) / (norm_n * norm_b)
    re = relative_error(np.asarray(n_raw).ravel(order='K'), np.asarray(b_raw).ravel(order='K'))
    big = np.abs(b) > EPS
    terms = np.where(big, np.abs(np.divide(n, b, out=np.ones_like(n), where=big) - 1), 0.0)
    return {
        'cosine': cosine,
        'euclidean_distance': float(np.sqrt(d2)),
        'relative_euclidean_distance': 0.0 if norm_b <= EPS else float(np.sqrt(d2 / bb)),
        'max_abs_error': float(abs_diff.max()),
        'mean_abs_error': float(abs_diff.mean()),
        'rmse': float(np.sqrt(d2 / n.size)),
        'max_relative_error': float(re.max()),
        'mean_relative_error': float(terms.mean()),
        'accumulated_relative_error': float(terms.sum()),
        'one_thousandth_err_ratio': float(np.count_nonzero(re < 0.001)) / n.size,
        'five_thousandth_err_ratio': float(np.count_nonzero(re < 0.005)) / n.size,
        'kl_divergence': kl_divergence(n, b),
        'npu_mean': float(n.mean()),
        'npu_std': float(n.std()),
        'bench_mean': float(b.mean()),
        'bench_std': float(b.std()),
    }


def main():
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    times = []
    processor = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        processor_start = time.process_time()
        result = metrics(sys.argv[1], sys.argv[2])
        times.append(time.perf_counter() - start)
        processor.append(time.process_time() - processor_start)
    result['seconds'] = statistics.median(times)
    result['processor_seconds'] = statistics.median(processor)
    result['peak_rss_bytes'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    result['kl_reference'] = kl_reference(sys.argv[1], sys.argv[2])
    print(json.dumps(result))


if __name__ == '__main__':
    main()
