# SPDX-License-Identifier: GPL-3.0-or-later
"""A stand-in for the MindX SDK's StreamManagerApi module.

InitManager checks the environment the SDK's run.sh sets up (MX_SDK_HOME,
LD_LIBRARY_PATH, GST_PLUGIN_PATH, PYTHONPATH); CreateMultipleStreams checks
each element's factory and the files its properties name, as the stream
manager does when it starts a stream. Failures print the SDK's glog lines,
"(Code = N, Message = ...)", and return its codes.
"""
import json
import os
import sys
import time

HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGINS = {
    'appsrc', 'appsink', 'fakesink', 'filesink', 'queue', 'tee', 'mxpi_imagedecoder', 'mxpi_imageresize',
    'mxpi_imagecrop', 'mxpi_tensorinfer', 'mxpi_modelinfer', 'mxpi_dataserialize', 'mxpi_objectpostprocessor',
    'mxpi_classpostprocessor', 'mxpi_dumpdata', 'mxpi_loaddata', 'mxpi_distributor', 'mxpi_parallel2serial',
}
PATH_PROPS = ('modelPath', 'postProcessConfigPath', 'labelPath', 'postProcessLibPath')
MESSAGES = {
    1013: 'Initialization failed',
    1016: 'File or resource does not exist',
    1028: 'MX_SDK_HOME is not set',
    6003: 'Stream change state failed',
    6014: 'Invalid element factory',
}


def _log(source, line, text, code):
    now = time.time()
    stamp = time.strftime('%m%d %H:%M:%S', time.localtime(now)) + '.%06d' % int((now % 1) * 1e6)
    print('E%s %7d %s:%d] %s (Code = %d, Message = "%s")' % (stamp, os.getpid(), source, line, text, code,
                                                           MESSAGES[code]), flush=True)
    return code


def _on_path(variable, folder):
    return folder in os.environ.get(variable, '').split(':')


class StreamManagerApi:
    def InitManager(self):
        home = os.environ.get('MX_SDK_HOME')
        if not home:
            return _log('MxStreamManager.cpp', 74, 'MX_SDK_HOME is not set.', 1028)
        if os.path.realpath(home) != os.path.realpath(HOME):
            return _log('MxStreamManager.cpp', 80, 'MX_SDK_HOME (%s) is not this SDK.' % home, 1013)
        for variable, folder in (('LD_LIBRARY_PATH', 'lib'), ('GST_PLUGIN_PATH', 'lib/plugins')):
            if not _on_path(variable, os.path.join(home, folder)):
                return _log('MxStreamManager.cpp', 91, '%s does not hold %s.' % (variable, folder), 1013)
        return 0

    def CreateMultipleStreams(self, config):
        try:
            streams = json.loads(config)
        except ValueError as error:
            return _log('MxStreamManager.cpp', 120, 'The pipeline is not JSON: %s.' % error, 6003)
        for stream_name, stream in streams.items():
            for name, element in stream.items():
                if name == 'stream_config':
                    continue
                code = self._check_element(stream_name, name, element)
                if code:
                    return code
        return 0

    def _check_element(self, stream_name, name, element):
        factory = element.get('factory')
        if factory not in PLUGINS:
            _log('MxsmElement.cpp', 212, 'Invalid element factory (%s) of element (%s).' % (factory, name), 6014)
            return _log('MxsmStream.cpp', 318, 'Failed to create stream (%s).' % stream_name, 6003)
        for key in PATH_PROPS:
            path = element.get('props', {}).get(key)
            if path and not os.path.exists(path):
                _log('MxpiTensorInfer.cpp', 97, 'Failed to open %s (%s) of element (%s).' % (key, path, name), 1016)
                return _log('MxsmStream.cpp', 318, 'Failed to change the state of stream (%s).' % stream_name,
                            6003)
        return 0

    def DestroyAllStreams(self):
        return 0
