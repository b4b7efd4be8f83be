#!/usr/bin/python3
"""Write a tiny random-weight BERT-style encoder for testing the hf provider offline.

Output folder (default test/fixtures/embed/tiny-bert): config.json,
tokenizer.json, tokenizer_config.json and onnx/model.onnx -- the layout
transformers.js loads with remote loading off. The graph is one
single-head self-attention block over word + position + token-type
embeddings, with LayerNorm, so the attention mask and padding matter as in a
real BERT. Weights come from a fixed seed: the same script writes the same
bytes.

Needs Debian's python3-onnx and python3-numpy (apt-get install python3-onnx);
run with the system interpreter: /usr/bin/python3 scripts/make_tiny_onnx.py
"""

import json
import os
import string
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN = 32
MAX_POS = 128
SEED = 20260510

WORDS = [
    "def", "return", "if", "else", "elif", "for", "while", "in", "not", "and", "or",
    "range", "len", "sum", "min", "max", "sorted", "list", "dict", "set", "str", "int",
    "true", "false", "none", "import", "lambda", "is", "add", "reverse", "count", "sort",
    "string", "number", "numbers", "even", "odd", "vowels", "a", "b", "s", "x", "n", "i",
]


def vocab():
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    chars = [c for c in string.printable if not c.isspace() and not c.isupper()]
    tokens = specials + WORDS + [c for c in chars if c not in WORDS]
    tokens += ["##" + c for c in chars]
    seen, out = set(), []
    for t in tokens:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return {t: i for i, t in enumerate(out)}


def tokenizer_json(v):
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    added = [
        {"id": v[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for t in special
    ]
    cls = {"SpecialToken": {"id": "[CLS]", "type_id": 0}}
    sep = {"SpecialToken": {"id": "[SEP]", "type_id": 0}}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [cls, {"Sequence": {"id": "A", "type_id": 0}}, sep],
            "pair": [cls, {"Sequence": {"id": "A", "type_id": 0}}, sep,
                     {"Sequence": {"id": "B", "type_id": 1}}, {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [v["[CLS]"]], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [v["[SEP]"]], "tokens": ["[SEP]"]},
            },
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": v},
    }


def graph(vocab_size):
    rng = np.random.RandomState(SEED)

    def w(name, *shape, scale=0.5):
        return numpy_helper.from_array((rng.randn(*shape) * scale).astype(np.float32), name)

    inits = [
        w("word_emb", vocab_size, HIDDEN, scale=1.0),
        w("pos_emb", MAX_POS, HIDDEN, scale=0.1),
        w("type_emb", 2, HIDDEN, scale=0.1),
        numpy_helper.from_array(np.ones(HIDDEN, np.float32), "ln1_g"),
        numpy_helper.from_array(np.zeros(HIDDEN, np.float32), "ln1_b"),
        numpy_helper.from_array(np.ones(HIDDEN, np.float32), "ln2_g"),
        numpy_helper.from_array(np.zeros(HIDDEN, np.float32), "ln2_b"),
        w("wq", HIDDEN, HIDDEN, scale=HIDDEN ** -0.5),
        w("wk", HIDDEN, HIDDEN, scale=HIDDEN ** -0.5),
        w("wv", HIDDEN, HIDDEN, scale=HIDDEN ** -0.5),
        w("wo", HIDDEN, HIDDEN, scale=HIDDEN ** -0.5),
        numpy_helper.from_array(np.array(0, np.int64), "zero"),
        numpy_helper.from_array(np.array(1, np.int64), "one"),
        numpy_helper.from_array(np.array([1], np.int64), "axis1"),
        numpy_helper.from_array(np.array([1], np.int64), "idx1"),
        numpy_helper.from_array(np.array(HIDDEN ** -0.5, np.float32), "scale"),
        numpy_helper.from_array(np.array(1.0, np.float32), "onef"),
        numpy_helper.from_array(np.array(-10000.0, np.float32), "neg"),
    ]
    n = helper.make_node
    nodes = [
        n("Gather", ["word_emb", "input_ids"], ["we"]),
        n("Gather", ["type_emb", "token_type_ids"], ["te"]),
        n("Shape", ["input_ids"], ["shape"]),
        n("Gather", ["shape", "one"], ["seq_len"]),
        n("Range", ["zero", "seq_len", "one"], ["positions"]),
        n("Gather", ["pos_emb", "positions"], ["pe"]),
        n("Add", ["we", "te"], ["e1"]),
        n("Add", ["e1", "pe"], ["e2"]),
        n("LayerNormalization", ["e2", "ln1_g", "ln1_b"], ["x"], axis=-1, epsilon=1e-12),
        n("MatMul", ["x", "wq"], ["q"]),
        n("MatMul", ["x", "wk"], ["k"]),
        n("MatMul", ["x", "wv"], ["v"]),
        n("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
        n("MatMul", ["q", "kt"], ["qk"]),
        n("Mul", ["qk", "scale"], ["scores"]),
        # Padding keys get -10000 so they take no attention, as in BERT.
        n("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        n("Unsqueeze", ["maskf", "axis1"], ["mask3"]),
        n("Sub", ["onef", "mask3"], ["inv_mask"]),
        n("Mul", ["inv_mask", "neg"], ["bias"]),
        n("Add", ["scores", "bias"], ["masked"]),
        n("Softmax", ["masked"], ["probs"], axis=-1),
        n("MatMul", ["probs", "v"], ["ctx"]),
        n("MatMul", ["ctx", "wo"], ["attn_out"]),
        n("Add", ["x", "attn_out"], ["res"]),
        n("LayerNormalization", ["res", "ln2_g", "ln2_b"], ["last_hidden_state"], axis=-1,
          epsilon=1e-12),
    ]
    ids = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
    g = helper.make_graph(
        nodes,
        "tiny_bert",
        [ids("input_ids"), ids("attention_mask"), ids("token_type_ids")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                       ["batch", "seq", HIDDEN])],
        inits,
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="execret-make-tiny-onnx")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "test/fixtures/embed/tiny-bert"
    os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
    v = vocab()
    config = {
        "model_type": "bert",
        "architectures": ["BertModel"],
        "hidden_size": HIDDEN,
        "num_attention_heads": 1,
        "num_hidden_layers": 1,
        "intermediate_size": HIDDEN,
        "vocab_size": len(v),
        "max_position_embeddings": MAX_POS,
        "type_vocab_size": 2,
        "pad_token_id": 0,
    }
    tok_config = {
        "tokenizer_class": "BertTokenizer",
        "do_lower_case": True,
        "model_max_length": MAX_POS,
        "pad_token": "[PAD]",
        "unk_token": "[UNK]",
        "cls_token": "[CLS]",
        "sep_token": "[SEP]",
        "mask_token": "[MASK]",
    }
    for name, obj in [("config.json", config), ("tokenizer.json", tokenizer_json(v)),
                      ("tokenizer_config.json", tok_config)]:
        with open(os.path.join(out, name), "w") as f:
            json.dump(obj, f, indent=1, sort_keys=True)
            f.write("\n")
    onnx.save(graph(len(v)), os.path.join(out, "onnx", "model.onnx"))
    print(f"wrote {out} (vocab {len(v)}, hidden {HIDDEN})")


if __name__ == "__main__":
    main()
