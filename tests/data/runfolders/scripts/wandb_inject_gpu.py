"""Make the GPU-machine variant of the offline W&B run (wandb_synced_gpu/).

Rewrites run-<id>.wandb (W&B's LevelDB-log framed transaction log: 7-byte header ':W&B' 0xBEE1 0,
32 KiB blocks, 7-byte record headers crc32(type+data)/len/type) so that its second EnvironmentRecord
(the system-info one wandb-core writes with cpu_count, disk, memory) also claims an 8x H100 machine:
gpu_type, gpu_count, gpu_nvidia[8], cuda_version. Every other record is copied byte for byte. The
file is then synced with `wandb sync` against fake_wandb_server.py, so wandb-metadata.json,
config.yaml and wandb-summary.json are serialized by wandb-core itself.

    python wandb_inject_gpu.py RUN.wandb   # rewrites in place; checks an unedited round trip first
"""
import struct
import sys
import zlib

from wandb.proto import wandb_internal_pb2 as pb

BLOCK = 32768


def read_records(buf):
    assert buf[:7] == struct.pack("<4sHB", b":W&B", 0xBEE1, 0)
    pos, pending = 7, b""
    while pos + 7 <= len(buf):
        left = BLOCK - pos % BLOCK
        if left < 7:
            pos += left
            continue
        crc, ln, typ = struct.unpack("<IHB", buf[pos:pos + 7])
        if ln == 0 and typ == 0:
            pos += left
            continue
        data = buf[pos + 7:pos + 7 + ln]
        assert zlib.crc32(data, zlib.crc32(bytes([typ]))) & 0xFFFFFFFF == crc
        pos += 7 + ln
        if typ == 1:
            yield data
        elif typ == 2:
            pending = data
        elif typ == 3:
            pending += data
        elif typ == 4:
            yield pending + data
            pending = b""


def write_records(records):
    out = bytearray(struct.pack("<4sHB", b":W&B", 0xBEE1, 0))
    for data in records:
        first = True
        while True:
            left = BLOCK - len(out) % BLOCK
            if left < 7:
                out += b"\0" * left
                left = BLOCK
            n = min(len(data), left - 7)
            chunk, data = data[:n], data[n:]
            typ = (1 if not data else 2) if first else (4 if not data else 3)
            out += struct.pack("<IHB", zlib.crc32(chunk, zlib.crc32(bytes([typ]))) & 0xFFFFFFFF, n, typ)
            out += chunk
            first = False
            if not data:
                break
    return bytes(out)


def main(path):
    buf = open(path, "rb").read()
    recs = list(read_records(buf))
    assert write_records(recs) == buf, "writer does not round-trip this file"
    new = []
    for data in recs:
        r = pb.Record()
        r.ParseFromString(data)
        if r.WhichOneof("record_type") == "environment" and r.environment.cpu_count:
            env = r.environment
            env.gpu_type = "NVIDIA H100 80GB HBM3"
            env.gpu_count = 8
            env.cuda_version = "12.4"
            for i in range(8):
                g = env.gpu_nvidia.add()
                g.name = "NVIDIA H100 80GB HBM3"
                g.memory_total = 85520809984  # 81559 MiB, what NVML reports for an H100 80GB HBM3
                g.cuda_cores = 16896
                g.architecture = "Hopper"
                g.uuid = f"GPU-00000000-0000-0000-0000-00000000000{i}"
            data = r.SerializeToString()
        new.append(data)
    open(path, "wb").write(write_records(new))


if __name__ == "__main__":
    main(sys.argv[1])
