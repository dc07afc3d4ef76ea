#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer of bench-summary-load: loads a MindSpore summary file the way
MindInsight does, with python3-protobuf.

The message classes are built at run time from a FileDescriptorProto made
here (no protoc needed). Records are framed and read like MindInsight's
loader (lengths checked, checksums not verified); every event is parsed
and every scalar and histogram kept per tag. Prints one JSON line with the
tag counts, the wall time of the load and the peak memory.

Usage: summary_load_peer.py FILE
"""
import json
import resource
import struct
import sys
import time

from google.protobuf import descriptor_pb2, descriptor_pool

try:
    from google.protobuf.message_factory import GetMessageClass
except ImportError:  # older python3-protobuf
    from google.protobuf import message_factory

    def GetMessageClass(descriptor):
        return message_factory.MessageFactory().GetPrototype(descriptor)

F = descriptor_pb2.FieldDescriptorProto


def add_field(message, name, number, type_, label=F.LABEL_OPTIONAL, type_name=None, oneof=None):
    field = message.field.add(name=name, number=number, type=type_, label=label)
    if type_name:
        field.type_name = type_name
    if oneof is not None:
        field.oneof_index = oneof


def build_classes():
    proto = descriptor_pb2.FileDescriptorProto(name='bench_summary.proto', package='mindinsight', syntax='proto2')

    event = proto.message_type.add(name='Event')
    event.oneof_decl.add(name='what')
    add_field(event, 'wall_time', 1, F.TYPE_DOUBLE, F.LABEL_REQUIRED)
    add_field(event, 'step', 2, F.TYPE_INT64)
    add_field(event, 'version', 3, F.TYPE_STRING, oneof=0)
    add_field(event, 'summary', 5, F.TYPE_MESSAGE, type_name='.mindinsight.Summary', oneof=0)

    summary = proto.message_type.add(name='Summary')
    add_field(summary, 'value', 1, F.TYPE_MESSAGE, F.LABEL_REPEATED, '.mindinsight.Summary.Value')

    histogram = summary.nested_type.add(name='Histogram')
    bucket = histogram.nested_type.add(name='Bucket')
    add_field(bucket, 'left', 1, F.TYPE_DOUBLE, F.LABEL_REQUIRED)
    add_field(bucket, 'width', 2, F.TYPE_DOUBLE, F.LABEL_REQUIRED)
    add_field(bucket, 'count', 3, F.TYPE_INT64, F.LABEL_REQUIRED)
    add_field(histogram, 'buckets', 1, F.TYPE_MESSAGE, F.LABEL_REPEATED, '.mindinsight.Summary.Histogram.Bucket')
    add_field(histogram, 'nan_count', 2, F.TYPE_INT64)
    add_field(histogram, 'pos_inf_count', 3, F.TYPE_INT64)
    add_field(histogram, 'neg_inf_count', 4, F.TYPE_INT64)
    add_field(histogram, 'max', 5, F.TYPE_DOUBLE)
    add_field(histogram, 'min', 6, F.TYPE_DOUBLE)
    add_field(histogram, 'sum', 7, F.TYPE_DOUBLE)
    add_field(histogram, 'count', 8, F.TYPE_INT64)

    value = summary.nested_type.add(name='Value')
    value.oneof_decl.add(name='value')
    add_field(value, 'tag', 1, F.TYPE_STRING, F.LABEL_REQUIRED)
    add_field(value, 'scalar_value', 3, F.TYPE_FLOAT, oneof=0)
    add_field(value, 'histogram', 9, F.TYPE_MESSAGE, type_name='.mindinsight.Summary.Histogram', oneof=0)

    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return GetMessageClass(pool.FindMessageTypeByName('mindinsight.Event'))


def load(path, event_class):
    scalars = {}
    histograms = {}
    with open(path, 'rb') as f:
        while True:
            header = f.read(8)
            if len(header) < 8:
                break
            length = struct.unpack('<Q', header)[0]
            f.read(4)
            payload = f.read(length)
            f.read(4)
            if len(payload) < length:
                break
            event = event_class()
            event.ParseFromString(payload)
            if not event.HasField('summary'):
                continue
            for value in event.summary.value:
                kind = value.WhichOneof('value')
                if kind == 'scalar_value':
                    scalars.setdefault(value.tag, []).append((event.step, event.wall_time, value.scalar_value))
                elif kind == 'histogram':
                    histograms.setdefault(value.tag, []).append((event.step, event.wall_time, value.histogram))
    return scalars, histograms


def main():
    event_class = build_classes()
    start = time.perf_counter()
    scalars, histograms = load(sys.argv[1], event_class)
    seconds = time.perf_counter() - start
    print(json.dumps({
        'seconds': seconds,
        'scalar_tags': len(scalars),
        'scalar_points': sum(len(v) for v in scalars.values()),
        'histogram_tags': len(histograms),
        'histogram_points': sum(len(v) for v in histograms.values()),
        'peak_rss_bytes': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }))


if __name__ == '__main__':
    main()
