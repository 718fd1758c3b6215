#!/usr/bin/env python3
"""Compare rigscope's spring-bone joints with three-vrm's: for each sample of a vrm-peer.mjs
output (run with --clip), pose the same file with rigscope at the same time and print the
largest distance of any spring joint (and of any node), in model units and relative to the
spring joints' own extent."""
import json, subprocess, sys
rigscope, peer_json = sys.argv[1], sys.argv[2]
peer = json.load(open(peer_json))
clip = peer['options']['clip']
springs = set(peer['spring_joints'])
for sample in peer['samples']:
    t = sample['time']
    args = [rigscope, 'pose', peer['file'], '--time', f'{t:.9f}', '--playback', 'loop']
    if clip: args += ['--clip', clip]
    args += sys.argv[3:]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode: sys.exit(out.stderr)
    mine = {j['node']: j['world'][12:15] for j in json.loads(out.stdout)['joints']}
    worst_spring = worst_any = 0.0
    worst_node = None
    for node, p in sample['nodes'].items():
        node = int(node)
        if node not in mine: continue
        d = sum((a - b) ** 2 for a, b in zip(p, mine[node])) ** 0.5
        worst_any = max(worst_any, d)
        if node in springs and d > worst_spring:
            worst_spring, worst_node = d, node
    print(f"step {sample['step']:4d} t={t:.3f}: spring joints worst {worst_spring:.2e} (node {worst_node}), all nodes worst {worst_any:.2e}")
