"""One sequence read the way TrackEval's own `eval.py` reads it, for the scripts that score
with TrackEval (hota_crosscheck.py, real_data_quality.py, real_data_peers.py).

The two files are copied into a temporary MOTChallenge folder layout (GT/SEQ/gt/gt.txt and
TRACKERS/t/data/SEQ.txt) and read by `trackeval.datasets.MotChallenge2DBox` with BENCHMARK
'MOT15' (the 2D MOT 2015 rules: no class or distractor filtering; ground-truth rows whose
confidence column truncates to 0 are dropped, ids are remapped to contiguous indices),
SKIP_SPLIT_FOL and SEQ_INFO giving the sequence length as the last frame in either file; then
`get_raw_seq_data` (IoU of xywh boxes) and `get_preprocessed_seq_data(raw, 'pedestrian')`. MOT15
rather than MOT17 because headroom's files have -1 in the class column, which the MOT17
preprocessing rejects, and the TUD sequences are MOT15's.
"""
import contextlib
import io
import os
import shutil
import tempfile

import numpy as np

# Installed without its declared extras (scripts/trackeval-venv.sh), trackeval prints that its
# BURST dataset (segmentation, pycocotools) is unavailable; HOTA and MOTChallenge need neither.
with contextlib.redirect_stdout(io.StringIO()):
    import trackeval


def last_frame(path):
    with open(path) as handle:
        return max(int(float(line.split(",")[0])) for line in handle if line.strip())


def preprocessed(gt_path, tracks_path):
    """TrackEval's preprocessed data of one sequence, ready for a metric's eval_sequence."""
    sequence = "seq"
    with tempfile.TemporaryDirectory() as root:
        gt_folder = os.path.join(root, "gt")
        trackers_folder = os.path.join(root, "trackers")
        os.makedirs(os.path.join(gt_folder, sequence, "gt"))
        os.makedirs(os.path.join(trackers_folder, "t", "data"))
        shutil.copy(gt_path, os.path.join(gt_folder, sequence, "gt", "gt.txt"))
        shutil.copy(tracks_path, os.path.join(trackers_folder, "t", "data", sequence + ".txt"))
        dataset = trackeval.datasets.MotChallenge2DBox({
            "GT_FOLDER": gt_folder, "TRACKERS_FOLDER": trackers_folder,
            "TRACKERS_TO_EVAL": ["t"], "BENCHMARK": "MOT15", "SKIP_SPLIT_FOL": True,
            "SEQ_INFO": {sequence: max(last_frame(gt_path), last_frame(tracks_path))},
            "PRINT_CONFIG": False,
        })
        raw = dataset.get_raw_seq_data("t", sequence)
        return dataset.get_preprocessed_seq_data(raw, "pedestrian")


def scores(gt_path, tracks_path):
    """TrackEval's HOTA (with DetA and AssA), IDF1, MOTA and ID switches for one sequence, each
    HOTA figure the mean over its alphas, and the ground truth's number of people."""
    data = preprocessed(gt_path, tracks_path)
    hota = trackeval.metrics.HOTA({"PRINT_CONFIG": False}).eval_sequence(data)
    identity = trackeval.metrics.Identity({"PRINT_CONFIG": False}).eval_sequence(data)
    clear = trackeval.metrics.CLEAR({"PRINT_CONFIG": False}).eval_sequence(data)
    return {"hota": float(np.mean(hota["HOTA"])), "detA": float(np.mean(hota["DetA"])),
            "assA": float(np.mean(hota["AssA"])), "idf1": float(identity["IDF1"]),
            "mota": float(clear["MOTA"]), "idsw": int(clear["IDSW"]),
            "people": int(data["num_gt_ids"])}
