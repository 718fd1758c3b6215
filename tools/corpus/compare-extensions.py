#!/usr/bin/env python3
"""Draws each material extension's Khronos test model with rigscope and with three.js through one
camera (inject-camera.py), both lit by three.js's RoomEnvironment, and with rigscope again without
the extension; prints `model|extension|mean difference against three.js|against itself without
the extension` (0-255, over the model's pixels). The README's table of extensions comes from it.

Usage: compare-extensions.py [MODEL ...]
Environment: CORPUS (the khronos-extension-models folder, tools/corpus/SOURCES.md), RIGSCOPE (a
release binary), PEER (a ../shared/peer-three copy with its node_modules), ROOM_HDR (written by
the peer's room-hdr.mjs), OUT (where the pictures go).
"""
import json, struct, subprocess, os, sys
import numpy as np
from PIL import Image

D = os.environ.get('CORPUS', '/work/corpus/files/khronos-extension-models')
RS = os.environ.get('RIGSCOPE', 'target/release/rigscope')
PEER = os.environ.get('PEER', '/tmp/peer-three')
ROOM = os.environ.get('ROOM_HDR', '/tmp/room.hdr')
OUT = os.environ.get('OUT', '/tmp/compare-extensions')
os.makedirs(OUT, exist_ok=True)
cases=[('ClearCoatTest.glb','KHR_materials_clearcoat'),('SheenChair/SheenChair.gltf','KHR_materials_sheen'),('SheenCloth/SheenCloth.gltf','KHR_materials_sheen'),
('GlamVelvetSofa.glb','KHR_materials_sheen'),('TransmissionTest.glb','KHR_materials_transmission'),('TransmissionRoughnessTest.glb','KHR_materials_transmission'),
('AttenuationTest.glb','KHR_materials_volume'),('IridescenceLamp/IridescenceLamp.gltf','KHR_materials_iridescence'),('SpecularTest.glb','KHR_materials_specular'),
('SpecGlossVsMetalRough/SpecGlossVsMetalRough.gltf','KHR_materials_pbrSpecularGlossiness'),('EmissiveStrengthTest.glb','KHR_materials_emissive_strength'),
('UnlitTest.glb','KHR_materials_unlit'),('NormalTangentMirrorTest.glb','TANGENT'),('NormalTangentTest.glb','TANGENT'),('ToyCar/ToyCar.gltf','KHR_materials_*')]
only=sys.argv[1:]
def load_json(p):
    b=open(p,'rb').read()
    if p.endswith('.glb'):
        l=struct.unpack('<I',b[12:16])[0]; return json.loads(b[20:20+l]), b
    return json.loads(b), None
def save_without(p, ext, dst):
    j,b=load_json(p)
    def strip(m):
        e=m.get('extensions',{})
        for k in list(e):
            if k==ext or (ext.endswith('*') and k.startswith(ext[:-1])): del e[k]
    if ext=='TANGENT':
        for m in j['meshes']:
            for pr in m['primitives']: pr['attributes'].pop('TANGENT',None)
    else:
        for m in j.get('materials',[]): strip(m)
        for key in ('extensionsUsed','extensionsRequired'):
            if key in j: j[key]=[k for k in j[key] if not (k==ext or (ext.endswith('*') and k.startswith(ext[:-1])))]
    if b is None:
        json.dump(j,open(dst,'w')); return
    l=struct.unpack('<I',b[12:16])[0]; rest=b[20+l:]
    t=json.dumps(j).encode(); t+=b' '*((-len(t))%4)
    out=b[:12]+struct.pack('<I',len(t))+b'JSON'+t+rest
    out=out[:8]+struct.pack('<I',len(out))+out[12:]
    open(dst,'wb').write(out)
def cam(p):
    out=p.replace('.glb','-cam.glb').replace('.gltf','-cam.gltf')
    subprocess.run(['python3',os.path.join(PEER, 'inject-camera.py'),p,'-o',out,'--azimuth','28.6479','--elevation','14.3239','--fov','40','--margin','1.1','--size','800x600'],capture_output=True)
    return out
def rs(p,o):
    subprocess.run([RS,'render',cam(p),'-o',o,'--camera','0','--size','800x600','--environment',ROOM,'--lights','file','--no-grid'],capture_output=True)
def three(p,o):
    subprocess.run(['node','render.mjs',cam(p),'-o',o,'--clip','none','--camera','0','--size','800x600','--background','#3c3f45'],cwd=PEER,capture_output=True,timeout=300)
def diff(a,b,mask_from=None):
    A=np.asarray(Image.open(a).convert('RGB')).astype(float); B=np.asarray(Image.open(b).convert('RGB')).astype(float)
    m=(np.abs(A-A[0,0]).sum(2)>10)&(np.abs(B-B[0,0]).sum(2)>10)
    return np.abs(A-B).mean(2)[m].mean()
for f,ext in cases:
    name=os.path.basename(f).rsplit('.',1)[0]
    if only and name not in only: continue
    p=os.path.join(D,f)
    suffix='.glb' if p.endswith('.glb') else '.gltf'
    stripped=os.path.join(os.path.dirname(p), name+'-no-ext'+suffix)
    save_without(p,ext,stripped)
    three(p,f'{OUT}/{name}-three.png'); rs(p,f'{OUT}/{name}-rs.png'); rs(stripped,f'{OUT}/{name}-rs-noext.png')
    for variant in (stripped, cam(p), cam(stripped)):
        os.remove(variant)
    try:
        print(f"{name}|{ext}|{diff(f'{OUT}/{name}-three.png',f'{OUT}/{name}-rs.png'):.2f}|{diff(f'{OUT}/{name}-rs.png',f'{OUT}/{name}-rs-noext.png'):.2f}", flush=True)
    except Exception as e: print(name,'error',e, flush=True)
