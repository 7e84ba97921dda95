package main

import (
	"fmt"
	"strconv"
	"strings"
)

// shardVars are the variables of CI systems and batch schedulers that give a job its index among
// parallel jobs, in the order they are looked at, with the variable of the count when the system
// sets one and whether the index counts from 1.
var shardVars = []shardVar{
	{"JOB_COMPLETION_INDEX", "",
		false}, // Kubernetes Indexed Job (count: --shards, the Job's completions)
	{"CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", false},                 // CircleCI parallelism
	{"BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", false}, // Buildkite parallelism
	{"CI_NODE_INDEX", "CI_NODE_TOTAL", true},                          // GitLab CI parallel:
}

// shardVar is a variable of a shard index: its name, the name of the count's, and whether the
// index counts from 1.
type shardVar struct {
	index, total string
	fromOne      bool
}

// parseShard reads i/n.
func parseShard(s string) (int, int, bool) {
	i, n, ok := strings.Cut(s, "/")
	a, err1 := strconv.Atoi(strings.TrimSpace(i))
	b, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || b <= 0 || a < 0 || a >= b {
		return 0, 0, false
	}
	return a, b, true
}

// pickShard decides which shard of the tools a run checks: --shard i/n; else TOOLPROOF_SHARD=i/n;
// else the index a CI system or batch scheduler gives the job (shardVars), with the count from
// --shards or the system's own count variable. n is 0 when the run checks every tool (also when
// the system says there is one job); from says where the shard came from, for stderr.
func pickShard(flagShard string, flagShards int, getenv func(string) string) (i, n int, from string, err error) {
	if flagShards < 0 {
		return 0, 0, "", usagef("--shards %d: want a positive count", flagShards)
	}
	// --shard i/n, else TOOLPROOF_SHARD=i/n: the same reading, named as the user gave it.
	for _, src := range []struct{ name, sep, value string }{
		{"--shard", " ", flagShard},
		{"TOOLPROOF_SHARD", "=", getenv("TOOLPROOF_SHARD")},
	} {
		if src.value == "" {
			continue
		}
		i, n, ok := parseShard(src.value)
		if !ok {
			return 0, 0, "", usagef("%s%s%q: want i/n with 0 <= i < n", src.name, src.sep, src.value)
		}
		if flagShards > 0 && flagShards != n {
			return 0, 0, "", usagef("%s%s%s and --shards %d disagree on the count", src.name,
				src.sep, src.value, flagShards)
		}
		return i, n, src.name + src.sep + src.value, nil
	}
	for _, sv := range shardVars {
		v := getenv(sv.index)
		if v == "" {
			continue
		}
		return shardFromVar(sv, v, flagShards, getenv)
	}
	if flagShards > 0 {
		var names []string
		for _, sv := range shardVars {
			names = append(names, sv.index)
		}
		return 0, 0, "", usagef("--shards %d: no shard index; give --shard i/%d, or set TOOLPROOF_SHARD or one of %s",
			flagShards, flagShards, strings.Join(names, ", "))
	}
	return 0, 0, "", nil
}

// shardFromVar reads the shard index from the variable sv names (set to v), with the count from
// --shards or sv's count variable.
func shardFromVar(sv shardVar, v string, flagShards int, getenv func(string) string) (i, n int,
	from string, err error) {
	i, err = strconv.Atoi(strings.TrimSpace(v))
	if err != nil || i < 0 || (sv.fromOne && i < 1) {
		return 0, 0, "", usagef("%s=%q: not a shard index", sv.index, v)
	}
	if sv.fromOne {
		i--
	}
	n, from = flagShards, fmt.Sprintf("%s=%s", sv.index, v)
	if n > 0 {
		from += fmt.Sprintf(", --shards %d", n)
	} else if sv.total != "" {
		t := getenv(sv.total)
		n, err = strconv.Atoi(strings.TrimSpace(t))
		if err != nil || n <= 0 {
			return 0, 0, "", usagef("%s=%s is set, but %s=%q is not a count (give the count with --shards N)",
				sv.index, v, sv.total, t)
		}
		from += fmt.Sprintf(", %s=%s", sv.total, t)
	} else {
		return 0, 0, "", usagef("%s=%s is set: give the number of shards with --shards N (the Job's completions), or "+
			"--shard i/n", sv.index, v)
	}
	if i >= n {
		return 0, 0, "", usagef("shard index %d (from %s) is not below the count %d", i, from, n)
	}
	if n == 1 {
		return 0, 0, "", nil
	}
	return i, n, from, nil
}
