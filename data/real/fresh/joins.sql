-- joins.sql: two tables, a join with grouping, a LIKE filter, a
-- correlated subquery and ordering by an expression
CREATE TABLE a(id INTEGER PRIMARY KEY, k INTEGER, s TEXT);
PRAGMA temp_store = MEMORY;
CREATE TABLE b(id INTEGER PRIMARY KEY, k INTEGER, w REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
INSERT INTO a SELECT i, (i * 13) % 101, hex(i * 2654435761 % 4294967296) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
INSERT INTO b SELECT i, (i * 17) % 101, (i % 89) * 1.25 FROM n;
SELECT a.k, count(*), round(sum(b.w), 2) FROM a JOIN b ON a.k = b.k GROUP BY a.k ORDER BY 3 DESC LIMIT 6;
SELECT count(*) FROM a WHERE s LIKE '%A%F%';
SELECT id, s FROM a WHERE k = (SELECT max(k) FROM b WHERE b.id = a.id) ORDER BY length(s), s LIMIT 5;
SELECT upper(substr(s, 2, 3)) AS p, count(*) FROM a GROUP BY p ORDER BY 2 DESC, 1 LIMIT 5;
