"""The ROS 2 node's tests: the node's folder on the path, and Headroom's Python client from the
installed package or, failing that, from the checkout (clients/python)."""

import os
import sys

NODE_FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, NODE_FOLDER)

try:
    import headroom_client  # noqa: F401 (installed, or else from the checkout)
except ImportError:
    sys.path.append(os.path.join(os.path.dirname(NODE_FOLDER), "python"))
