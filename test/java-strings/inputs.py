import random
rng = random.Random(20261130)
hand = [
 "eda080","edbfbf","eda041","eda0","ed","eda0bdedb880","f09f9880","f09f98","f09f","f0","c0af","e080af","f0808080","c2","e282","e282ac","80","bf","8080","fe","ff","f4908080","f48fbfbf","f5808080","e0a080","e09f80","efbfbf","efbfbe","c280","c1bf","dfbf","e0","ee8080","f08f8080","f0908080","f8888080","fc84808080","c2c2","e2e282ac","f0f09f9880","61eda08062","61ed","61f09f","61c2","ed9fbf","edbfbf61","eda080eda080","f3bfbfbf","f1808080","e1","e180","e18080","c3a9","e697a5e69cac","efbbbf","00","7f","2d",
 "61756469742deda080","636c69636b732deda0bdedb880",
]
pools = [
 lambda: rng.randrange(0x20,0x7f),
 lambda: rng.choice([0xc0,0xc1]),
 lambda: rng.randrange(0xc2,0xe0),
 lambda: 0xe0, lambda: rng.randrange(0xe1,0xed), lambda: 0xed, lambda: rng.choice([0xee,0xef]),
 lambda: 0xf0, lambda: rng.randrange(0xf1,0xf4), lambda: 0xf4, lambda: rng.randrange(0xf5,0x100),
 lambda: rng.randrange(0x80,0x90), lambda: rng.randrange(0x90,0xa0), lambda: rng.randrange(0xa0,0xc0),
 lambda: rng.randrange(0x80,0xc0), lambda: rng.randrange(0x80,0xc0),
]
seen=set(hand); out=list(hand)
while len(out) < 4000:
    n = rng.randrange(1, 9)
    h = "".join("%02x" % rng.choice(pools)() for _ in range(n))
    if h not in seen: seen.add(h); out.append(h)
print("\n".join(out))
