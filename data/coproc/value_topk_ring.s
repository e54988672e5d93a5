; value_topk_ring.s — value_topk.s with cheap records for loads without a
; slot (ours, an option; docs/coproc.md, "value_topk_ring"; branch cheap).
;
; value_topk.s gives a slot to every record of a load without one: the
; informational replacement test, the victim's spill to the ring and the
; allocation, about 60 microinstructions. In a phase with many more
; lukewarm loads than slots (bzip2-compress's last phase: about 1,170
; loads of about 460 executions each) most records take that path, the
; buffer drops, the governor thins the tagging, and those loads keep a
; few records each. Here such a record goes to the load's *tally*: an
; entry of the spill ring in the ring's own format (pc, total, a value's
; key, its count), found through a pointer table indexed by the PC
; filter's hash (4096 words at data[4096]; b1 is 0, so [b1 + x] is word
; x). The first record of a load since the last harvest writes the entry
; (9 microinstructions), and its value is the one the tally counts; the
; next ones add one to the total and, when they load that value, to its
; count (16 to 18). No CAM write, no spill. The handler merges tallies
; with the ring as it merges spilled slots (a load's tallies are samples
; like any other). One record in 4 of a load with a tally (a draw of
; bits 20-21: the replacement test's draw that follows uses the low
; bits) tries for a slot through value_topk.s's path instead (`promote`),
; so a hot load still gets a slot and its four ways; while a slot is
; empty (after a harvest) a load takes it at once. A pointer written
; before the last harvest (at or past v7) or to another load's entry (two
; loads with one hash) starts a new tally.
;
; Three handler parameters go with it: `ring_full_thrashes` (a ring full
; of tallies means more loads than slots, as 512 replacements do: the
; handler's thrashing rules, visits and holds, apply; but the program is
; not cut into more partitions, which left half of bzip2-compress's last
; phase unsampled), `harvest_ring_alone` (a full ring's interrupt reads
; the ring, not the slots: half a harvest) and `spread 64` (tallies let
; hot loads without a slot be seen in bursts; spreading their records
; over their run kept lua and sqlite3 where value_topk.s has them).
;
; The rest, and its notes (slots, ways, the spill ring, the data array's
; layout), are value_topk.s's: both include its microcode from lib/.
.name value_topk_ring
.handler value
.classes load
.fields pc value
.dfe load load
.iwidth 16
.cwidth 8
.base b0 640           ; the slot's pc and each way's key, by CAM entry (for the spill)
.base b1 0             ; slot totals and way counts, by CAM entry
.base b2 2048          ; the spill ring: 512 entries of pc, total, top key, its count
.base b3 1280          ; what each way inherited, by CAM entry
.const c1 48           ; failed replacements before an interrupt
.const c2 512          ; replacements before thrashing is declared (4 x slots)
.const c3 127          ; slots - 1
.const c4 255          ; random numbers 0..255
.const c5 128          ; slots: from one way's CAM entry to the next
.const c6 1            ; a value not in the full ways takes one in 2 times (branch evict; was 1 in 8)
.const c7 2048         ; spill ring words (512 entries of 4)
.const c8 512          ; 4 x slots: from a slot's CAM entry to its way 3
.const c9 256          ; 2 x slots: ... to its way 1
.const c10 2           ; an evicted way with this many own hits or more is spilled
.const c11 0x300000    ; a tally's record tries for a slot one time in 4 (bits 20-21 of a draw)
.const c12 4096        ; the tallies' pointers: data[4096 + hash(pc)] (b1 is 0)
.param slots 128       ; pc entries 0..127
.param ways 4          ; (load, value) entries per slot
.param key_shift 40    ; way key = value xor pc << 40 (the handler undoes it)
.param cam_entries 640 ; 128 x (1 + 4)
.param data_words 8192 ; 4096 more: the tallies' pointers (data[4096 + hash(pc)])
.param profile_entries 16384
.param buffer_entries 128 ; sample buffer records: holds retirement bursts (branch lvp8)
.param spill_entries 512 ; the handler reads the spill ring (b2, v7 words written)
.param inherited_permille 1000 ; the handler adds each count less what it inherited
.param confident 32
.param hi_permille 900
.param lo_permille 100
.param enough 512
.param max_width 4       ; at most 16 PC-filter partitions (value.s: 64; docs/coproc.md, branch lvp6)
.param partition_interrupts 4
.param low_yield 1024
.param slice_div 8
.param min_slice 5000
.param slice_ticks 1
.param min_visits 3
.param hold 128
.param resample_every 250000   ; unmask every masked load every 250k cycles from the start (ours; branch resample)
.param resample_backoff 7      ; a load whose re-check agreed twice in a row sits out 1, 3, 7 rounds (ours)
.param stable_permille 20
.param stable_sigmas 20
.param stable_agreements 2
.param skip_weight 1          ; a re-check that earns skipped rounds counts for them too (ours; branch skipw)
.param ring_full_thrashes 1   ; a ring full of tallies: the slots thrash (visits, holds; no more partitions)
.param harvest_ring_alone 1   ; ... and its interrupt empties the ring alone
.param spread 64              ; a load giving more than 64 samples a timer period is thinned

load:     shl v1, pc, 40
          xor v1, v1, value                       ; the (load, value) key
          lookup i0, pc          -> miss nomatch
          lookup i1, v1          -> miss newval
          .include "lib/topk_count_value.s"       ; i1: the value's way; count, newval ... take
nomatch:  .include "lib/tally_find.s"            ; no slot: the load's tally in the ring
          rand v3, c11           -> z promote     ; one in 4: try for a slot
          .include "lib/tally_count.s"
promote:  .include "lib/topk_evict_slot.s"         ; value_topk.s's path to a slot
          .include "lib/topk_alloc_slot.s"
          .include "lib/topk_slot_taken.s"
