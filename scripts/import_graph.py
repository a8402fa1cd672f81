#!/usr/bin/env python3
"""The module import graph of a crate's sources, and its cycles.

    scripts/import_graph.py SRC_DIR [DEPTH] [CRATE_NAME] [-v]

Reads every non-test Rust file under SRC_DIR (test files and `#[cfg(test)]`
modules are left out), takes the `use` trees and `crate::`/`super::`/
`self::` paths, and groups modules to DEPTH path segments (1: `ui`, 2:
`ui::app`, 3: `ui::app::prompt`). Prints the cycles (strongly connected
components of more than one module) and exits 1 if there is any; `-v`
also prints every edge. Run by `make test` over both crates at depth 4.
"""
import re, os, sys, collections
args = [a for a in sys.argv[1:] if a != '-v']
root = args[0] if args else 'src'
depth = int(args[1]) if len(args) > 1 else 2
crate_name = args[2] if len(args) > 2 else None

def modpath(p):
    rel = os.path.relpath(p, root)[:-3].split('/')
    if rel[-1] in ('mod', 'lib', 'main'): rel = rel[:-1]
    return rel

def strip_tests(t):
    # drop #[cfg(test)] mod ... { ... } blocks and `mod tests;` lines
    out=[]; i=0
    while True:
        m = re.search(r'#\[cfg\(test\)\]\s*(pub(\([a-z]+\))?\s+)?mod\s+\w+\s*\{', t[i:])
        if not m: out.append(t[i:]); break
        s = i+m.start(); out.append(t[i:s]); j = i+m.end(); d=1
        while d and j < len(t):
            if t[j]=='{': d+=1
            elif t[j]=='}': d-=1
            j+=1
        i=j
    return ''.join(out)

files = {}
for r,_,fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p=os.path.join(r,f)
            if re.search(r'(_tests|tests)\.rs$', f) or '/tests/' in p: continue
            files[p]=modpath(p)
# test-only files: those declared with #[cfg(test)] mod x;
testonly=set()
for p,m in files.items():
    t=open(p).read()
    for mm in re.finditer(r'#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+(\w+)\s*;', t):
        testonly.add(tuple(m+[mm.group(1)]))
edges=collections.defaultdict(set)
def expand(prefix, body):
    # expand use-trees roughly: returns list of paths
    body=body.strip()
    res=[]
    m=re.match(r'^([\w:]*?)(::)?\{(.*)\}$', body, re.S)
    if m:
        pre=(prefix+'::'+m.group(1) if m.group(1) else prefix) if prefix else m.group(1)
        inner=m.group(3); parts=[]; d=0; cur=''
        for c in inner:
            if c=='{': d+=1
            if c=='}': d-=1
            if c==',' and d==0: parts.append(cur); cur=''
            else: cur+=c
        parts.append(cur)
        for pp in parts:
            if pp.strip(): res+=expand(pre, pp)
        return res
    return [ (prefix+'::'+body) if prefix else body ]
for p,m in files.items():
    if tuple(m) in testonly: continue
    t=strip_tests(open(p).read())
    t=re.sub(r'//[^\n]*','',t)
    src=tuple(m[:depth])
    refs=[]
    for mm in re.finditer(r'\buse\s+([^;]+);', t):
        refs+=expand('', mm.group(1))
    for mm in re.finditer(r'\b(crate|super|self)(::\w+)+', t):
        refs.append(mm.group(0))
    for r in refs:
        r=re.sub(r'\s+','',r).split(' as ')[0]
        segs=r.split('::')
        base=list(m)
        if segs[0]=='crate': path=segs[1:]
        elif crate_name and segs[0]==crate_name: path=segs[1:]
        elif segs[0]=='super':
            b=list(m)
            # file mod.rs: super is parent of its module
            while segs and segs[0]=='super': b=b[:-1]; segs=segs[1:]
            path=b+segs
        elif segs[0]=='self': path=list(m)+segs[1:]
        else: continue
        dst=tuple(path[:depth])
        # only keep existing module prefixes
        mods=set(tuple(v[:k]) for v in files.values() for k in range(1,depth+1))
        while dst and dst not in mods: dst=dst[:-1]
        if not dst: continue
        if dst[:len(src)]==src or src[:len(dst)]==dst: continue
        edges[src].add(dst)
# SCCs
idx={}; low={}; st=[]; on=set(); sccs=[]; c=[0]
import sys; sys.setrecursionlimit(10000)
def sc(v):
    idx[v]=low[v]=c[0]; c[0]+=1; st.append(v); on.add(v)
    for w in edges.get(v,()):
        if w not in idx: sc(w); low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        comp=[]
        while True:
            w=st.pop(); on.discard(w); comp.append(w)
            if w==v: break
        if len(comp)>1: sccs.append(comp)
for v in list(edges):
    if v not in idx: sc(v)
if '-v' in sys.argv:
    for v in sorted(edges): print('::'.join(v),'->',', '.join(sorted('::'.join(x) for x in edges[v])))
print('cycles:', len(sccs))
for s in sccs:
    ss=set(s)
    print('  ', ' <-> '.join(sorted('::'.join(x) for x in s)))
    for v in sorted(s):
        print('      ', '::'.join(v),'->',', '.join(sorted('::'.join(x) for x in edges[v] if x in ss)))
sys.exit(1 if sccs else 0)
