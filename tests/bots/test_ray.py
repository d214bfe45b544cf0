"""``--ray``: arena, self-play and training data on a Ray cluster give the local run's results.

One small local cluster (2 CPUs) serves the whole module; it takes seconds to start.
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest
import ray
from ray import cloudpickle

from ohhell.bots.distributed import RayPool, RayPoolError, RayUnavailable
from ohhell.bots.match import decisions_per_game, run_match
from ohhell.cli import main
from ohhell.rules import Rules

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARENA = ["arena", "--bots", "heuristic,random", "--deals", "3", "--hand-sizes", "1,2,3", "--seed", "r",
         "--quiet"]
#: What differs between two runs of the same games: how long they took.
TIMINGS = ("seconds", "decision_ms_median", "decision_ms_max")

# The task functions below travel to the workers by value (this module is not importable there).
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster with 2 CPUs; yields its address."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def _without_timings(x):
    if isinstance(x, dict):
        return {k: _without_timings(v) for k, v in x.items() if k not in TIMINGS}
    if isinstance(x, list):
        return [_without_timings(v) for v in x]
    return x


def _arena(tmp_path, name, *extra):
    js, recs = tmp_path / f"{name}.json", tmp_path / f"{name}.jsonl"
    assert main(ARENA + ["--json", str(js), "--out", str(recs), *extra]) == 0
    return _without_timings(json.loads(js.read_text())), recs.read_text()


def _cli(*args, timeout=180):
    """``ohhell ARGS`` in a fresh process (no Ray connection of its own yet)."""
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}
    code = "import sys; from ohhell.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def test_arena_on_ray_gives_the_local_results(cluster, tmp_path, capsys):
    local_summary, local_records = _arena(tmp_path, "local", "--jobs", "1")
    ray_summary, ray_records = _arena(tmp_path, "ray", "--ray", "--jobs", "2")
    assert ray_summary == local_summary
    assert ray_records == local_records
    assert len(ray_records.splitlines()) == 6
    # another seed plays other games (the comparison above can fail)
    other, _ = _arena(tmp_path, "other", "--ray", "--seed", "q")
    assert other != local_summary


def test_arena_progress_counts_every_decision_once_on_ray(cluster):
    rules = Rules(4, hand_sizes=[1, 2])
    seen, done = [], []
    with RayPool(workers=2) as pool:
        m = run_match(rules, ["heuristic", "random"], deals=3, seed="p", pool=pool,
                      on_decisions=seen.append, progress=done.append)
    assert sum(seen) == m.games * decisions_per_game(rules)
    assert len(done) == m.games == 6
    local = run_match(rules, ["heuristic", "random"], deals=3, seed="p", jobs=1)
    assert [(r.deal, r.rotation, r.totals, r.made) for r in m.results] == \
           [(r.deal, r.rotation, r.totals, r.made) for r in local.results]


def test_selfplay_on_ray_writes_the_local_records(cluster, tmp_path):
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    args = ["selfplay", "--games", "5", "--seed", "s", "--hand-sizes", "1,2", "--quiet"]
    assert main(args + ["--out", str(local)]) == 0
    assert main(args + ["--out", str(remote), "--ray"]) == 0
    assert remote.read_bytes() == local.read_bytes()
    assert len(local.read_text().splitlines()) == 5


def test_training_data_on_ray_is_the_local_data(cluster):
    spec = importlib.util.spec_from_file_location("train_bid_model", os.path.join(ROOT, "scripts",
                                                                                  "train_bid_model.py"))
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    local = script.generate(700, 5, chunk=100)
    with RayPool(workers=2) as pool:
        remote = script.generate(700, 5, chunk=100, pool=pool)
    for a, b in zip(local[:3], remote[:3]):
        assert a.shape == b.shape and (a == b).all()
    assert local[3] == remote[3]


def test_play_network_training_on_ray_gives_the_local_weights(cluster, tmp_path):
    """``scripts/train_play_model.py --ray ADDRESS``: the teacher's hands and the self-play hands
    (whose play network travels with each task as bytes) played on the cluster train the same
    weights, to the bit, as a local run."""
    import numpy as np
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "train_play_model.py"), "--teacher-hands", "4",
           "--chunk", "2", "--teacher-iterations", "3", "--selfplay-hands", "16", "--epochs", "1",
           "--bid-epochs", "1", "--hidden", "16", "--bid-hidden", "8"]
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}
    local, remote = tmp_path / "local.npz", tmp_path / "remote.npz"
    for out, extra in ((local, []), (remote, ["--ray", cluster, "--jobs", "2"])):
        r = subprocess.run(cmd + ["--out", str(out), *extra], capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stderr
    with np.load(local) as a, np.load(remote) as b:
        assert sorted(a.files) == sorted(b.files)
        for k in a.files:
            assert (a[k] == b[k]).all(), k
    r = subprocess.run(cmd + ["--out", str(tmp_path / "x.npz"), "--ray", "127.0.0.1:1"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 1 and "train_play_model:" in r.stderr and "Traceback" not in r.stderr


def test_arena_joins_a_cluster_by_its_address(cluster, tmp_path):
    local_summary, local_records = _arena(tmp_path, "local", "--jobs", "1")
    js, recs = tmp_path / "joined.json", tmp_path / "joined.jsonl"
    r = _cli(*ARENA, "--ray", cluster, "--json", str(js), "--out", str(recs))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert _without_timings(json.loads(js.read_text())) == local_summary
    assert recs.read_text() == local_records


def test_a_bad_address_is_a_clear_error(cluster, capsys):
    r = _cli("arena", "--deals", "1", "--hand-sizes", "1", "--ray", "127.0.0.1:1", timeout=120)
    assert r.returncode == 2
    assert "no Ray cluster answers at 127.0.0.1:1" in r.stderr and "Traceback" not in r.stderr
    assert main(["arena", "--deals", "1", "--hand-sizes", "1", "--ray", "head:of:state"]) == 2
    assert "bad Ray address 'head:of:state'" in capsys.readouterr().err
    # connected to one cluster, a program cannot join another
    assert main(["selfplay", "--games", "1", "--hand-sizes", "1", "--quiet", "--ray", "127.0.0.1:1"]) == 2
    assert "cannot join 127.0.0.1:1" in capsys.readouterr().err


def test_ray_not_installed_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)         # import ray now fails
    assert main(["arena", "--deals", "1", "--hand-sizes", "1", "--ray"]) == 2
    assert "pip install 'ohhell[ray]'" in capsys.readouterr().err
    with pytest.raises(RayUnavailable):
        RayPool()


# --- workers that die --------------------------------------------------------------------------

def _dies_once(task, sink=None):
    """Kills its worker process the first time it runs for a task (a marker file remembers)."""
    marker, value = task
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return value * 2


def _always_dies(task, sink=None):
    os._exit(1)


def _bad_input(task, sink=None):
    raise ValueError(f"bad task {task}")


def test_a_worker_that_dies_has_its_task_run_again(cluster, tmp_path):
    tasks = [(str(tmp_path / f"m{i}"), i) for i in range(3)]
    with RayPool(workers=2, retries=2) as pool:
        got = dict(pool.imap(_dies_once, tasks))
    assert got == {0: 0, 1: 2, 2: 4}
    assert all(os.path.exists(m) for m, _ in tasks)     # each died once and ran again


def test_a_worker_that_keeps_dying_stops_the_run_with_a_clear_message(cluster):
    with RayPool(workers=1, retries=0) as pool:
        with pytest.raises(RayPoolError, match="a Ray worker died running task 0, and 0 retries died too"):
            list(pool.imap(_always_dies, [1, 2]))


def test_the_arena_stops_with_one_line_when_workers_keep_dying(cluster, monkeypatch, capsys):
    import ohhell.bots.match as match
    monkeypatch.setattr(match, "play_one", _always_dies)
    assert main(["arena", "--bots", "heuristic,random", "--deals", "1", "--hand-sizes", "1", "--ray",
                 "--jobs", "1", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "ohhell arena: a Ray worker died running task 0, and 2 retries died too" in err
    assert "Traceback" not in err


def test_bad_input_on_a_worker_is_the_local_error(cluster):
    with RayPool(workers=1) as pool:
        with pytest.raises(ValueError, match="bad task 7"):
            list(pool.imap(_bad_input, [7]))
    # a Ray connection this program made itself is left open for it
    assert ray.is_initialized()


# --- the server's analyses on Ray --------------------------------------------------------------

def _analyse_on(kind, record, pause=False):
    """Analyse ``record`` through the server's :class:`AnalysisJobs` of ``kind``; (stored
    result, progress seen, whether it was still unfinished after 2 s of a pause)."""
    import asyncio

    from ohhell.server.analysis_jobs import AnalysisJobs
    from ohhell.server.botpool import BotPool
    from ohhell.server.storage import open_store

    async def run():
        store = open_store(":memory:")
        await store.open()
        pool = BotPool("thread", 1)
        jobs = AnalysisJobs(store, pool, kind=kind, samples=3)
        jobs.start()
        held = None
        if pause:
            jobs._pool_load(True)                       # as if the bots filled the pool
        jobs.enqueue("t1", 1, record, "x", wanted=True)
        if pause:
            while (jobs.status("t1", 1) or {}).get("status") != "running":
                await asyncio.sleep(0.05)
            await asyncio.sleep(2.0)
            held = (jobs.status("t1", 1)["progress"] == 0.0 and jobs.paused
                    and await store.get_analysis("t1", 1) is None)
            jobs._pool_load(False)
        seen = []
        while (st := jobs.status("t1", 1)) is not None:
            assert st["status"] in ("queued", "running"), st
            seen.append(st["progress"])
            await asyncio.sleep(0.05)
        stored = await store.get_analysis("t1", 1)
        await jobs.stop()
        pool.close()
        await store.close()
        return stored, seen, held
    return asyncio.run(run())


def test_server_analyses_on_ray_equal_the_local_ones_and_yield_to_the_bots(cluster):
    from ohhell import Game
    from ohhell.bots import make, play_game
    game = play_game(Game(Rules(3, hand_sizes=[1, 2]), seed=3), [make("heuristic", seed=s) for s in range(3)])
    local, _, _ = _analyse_on("thread", game.record())
    remote, seen, held = _analyse_on("ray", game.record(), pause=True)
    assert local is not None and local["format"] == "ohhell.analysis"
    assert remote == local
    assert held                                   # paused for the bots, it took no step
    assert all(0.0 <= p <= 1.0 for p in seen)


def test_serve_with_a_bad_ray_address_says_so(tmp_path):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = _cli("serve", "--port", str(port), "--db", str(tmp_path / "t.sqlite3"), "--ray", "127.0.0.1:1",
             timeout=120)
    assert r.returncode == 1
    assert "no Ray cluster answers at 127.0.0.1:1" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.timeout(300)
def test_serve_with_ray_analyses_finished_games_on_the_cluster(cluster, tmp_path):
    """The real command joins the cluster and a finished game's analysis comes back from it."""
    import socket
    import time

    import httpx
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), "--db",
                                 str(tmp_path / "t.sqlite3"), "--bot-delay", "0.01", "--analysis-samples", "3",
                                 "--log-level", "warning", "--ray", cluster],
                                stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"},
                 {"kind": "bot", "bot": "random"}]
        t = httpx.post(base + "/api/tables", json={"rules": {"players": 3, "hand_sizes": [1, 2]},
                                                   "seats": seats}).json()
        deadline = time.monotonic() + 180
        while True:
            r = httpx.get(f"{base}/api/tables/{t['id']}/games/1/analysis", timeout=10)
            assert r.status_code in (200, 409), r.text
            if r.status_code == 200 and r.json()["status"] == "ready":
                break
            assert r.status_code == 409 or r.json()["status"] in ("queued", "running"), r.text
            assert time.monotonic() < deadline, "no analysis: " + log.read_text()
            time.sleep(0.3)
        assert r.json()["analysis"]["settings"]["samples"] == 3
        assert httpx.get(base + "/healthz").json()["analyses_done"] == 1
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    assert "Traceback" not in log.read_text()
