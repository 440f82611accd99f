/**
 * Writes small ONNX models for the tests, so no model file has to be downloaded: the subset of
 * onnx.proto needed for graphs of standard operators, encoded with protobufjs.
 */
import protobuf from 'protobufjs';

const SCHEMA = `
syntax = "proto3";
package onnx;
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
message TensorProto {
  repeated int64 dims = 1; int32 data_type = 2; repeated float float_data = 4 [packed = true];
  repeated int64 int64_data = 7 [packed = true]; string name = 8; bytes raw_data = 9;
}
message AttributeProto {
  string name = 1; float f = 2; int64 i = 3; bytes s = 4; TensorProto t = 5;
  repeated float floats = 7; repeated int64 ints = 8; int32 type = 20;
}
message NodeProto {
  repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4;
  repeated AttributeProto attribute = 5; string domain = 7;
}
message Dimension { int64 dim_value = 1; string dim_param = 2; }
message TensorShapeProto { repeated Dimension dim = 1; }
message TensorTypeProto { int32 elem_type = 1; TensorShapeProto shape = 2; }
message TypeProto { TensorTypeProto tensor_type = 1; }
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message GraphProto {
  repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message ModelProto {
  int64 ir_version = 1; string producer_name = 2; GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}
`;

const root = protobuf.parse(SCHEMA).root;
const Model = root.lookupType('onnx.ModelProto');

export const FLOAT = 1;
export const INT64 = 7;
export const BOOL = 9;

export type Dim = number | string;

export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs?: Record<string, number | number[] | { floats: number[] }>;
}

export interface GraphSpec {
  inputs: Array<{ name: string; type: number; shape: Dim[] }>;
  outputs: Array<{ name: string; type: number; shape: Dim[] }>;
  initializers?: Array<{ name: string; dims: number[]; floats?: Float32Array | number[]; ints?: number[] }>;
  nodes: NodeSpec[];
}

const valueInfo = (v: { name: string; type: number; shape: Dim[] }) => ({
  name: v.name,
  type: {
    tensorType: {
      elemType: v.type,
      shape: { dim: v.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
    },
  },
});

function attribute(name: string, value: number | number[] | { floats: number[] }) {
  if (Array.isArray(value)) return { name, ints: value, type: 7 };
  if (typeof value === 'object') return { name, floats: value.floats, type: 6 };
  return Number.isInteger(value) ? { name, i: value, type: 2 } : { name, f: value, type: 1 };
}

/** Serialises a graph as an ONNX model (IR 8, opset 17). */
export function buildModel(spec: GraphSpec): Buffer {
  const message = Model.fromObject({
    irVersion: 8,
    producerName: 'clindoc-test',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'test',
      node: spec.nodes.map((n, k) => ({
        name: `${n.op}_${k}`,
        opType: n.op,
        input: n.inputs,
        output: n.outputs,
        attribute: Object.entries(n.attrs ?? {}).map(([key, v]) => attribute(key, v)),
      })),
      initializer: (spec.initializers ?? []).map((t) =>
        t.ints
          ? { name: t.name, dims: t.dims, dataType: INT64, int64Data: t.ints }
          : { name: t.name, dims: t.dims, dataType: FLOAT, rawData: Buffer.from(Float32Array.from(t.floats ?? []).buffer) }),
      input: spec.inputs.map(valueInfo),
      output: spec.outputs.map(valueInfo),
    },
  });
  return Buffer.from(Model.encode(message).finish());
}
