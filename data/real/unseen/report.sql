-- report.sql: a recursive CTE, a view, window functions and string
-- aggregation; a different SQL program from bench.sql
CREATE TABLE t(id INTEGER PRIMARY KEY, grp INTEGER, name TEXT, v REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
INSERT INTO t SELECT i, i % 37, printf('item%05d', (i * 7919) % 100000), (i * 31 % 1000) / 7.0 FROM n;
CREATE INDEX t_grp ON t(grp, v);
CREATE VIEW g AS SELECT grp, count(*) AS c, round(avg(v), 3) AS a, max(name) AS m FROM t GROUP BY grp;
SELECT * FROM g ORDER BY a DESC LIMIT 5;
SELECT grp, name, rank() OVER (PARTITION BY grp ORDER BY v DESC) AS r FROM t WHERE id % 500 = 0 ORDER BY grp, r;
SELECT length(group_concat(substr(name, 5), '-')) FROM t WHERE name LIKE '%7%';
SELECT sum(a.v * b.v) FROM t a JOIN t b ON a.grp = b.grp AND b.id = a.id + 37 WHERE a.id < 3000;
UPDATE t SET v = v * 2 WHERE grp IN (SELECT grp FROM g WHERE c > 162);
SELECT count(*), round(sum(v), 2) FROM t;
