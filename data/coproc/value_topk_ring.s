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
; The rest is value_topk.s's, whose notes follow.
;
; value_topk.s — load-value profiling with several values counted per load
; (ours, beyond the paper: docs/coproc.md, "value_topk").
;
; value.s counts hits for one active value per slot, so a load's top value
; is counted only while it happens to be the active one. Here each of the
; 128 slots keeps 4 values at once, in the CAM: CAM entry s holds slot s's
; load pc, and its 4 "ways" are CAM entries s + 128, s + 256, s + 384,
; s + 512, keyed by (value xor pc << 40) so that one associative search
; finds the (load, value) pair. The counts are a space-saving summary:
;
;   way hit   its count + 1
;   way miss  an empty way takes the value (ways fill in order, so way 3
;             tells whether one is empty; branch fill: before it, an empty
;             way was taken one time in 8 like a full one, and a slot's
;             top value lost its first hits in every residency of the
;             slot). With every way in use: one time in 2 (an LFSR draw),
;             the way with the smallest count takes the value and goes on
;             from that count + 1 (the count it inherited is kept at b3:
;             the handler subtracts it, so what reaches the profile is the
;             value's own hits). The victim's own hits, if 2 or more, go
;             to the spill ring first (branch evict): before, they were
;             lost, so a load with more frequent values than ways (muldiv:
;             eight of 12.5% each) lost its values' hits at every
;             eviction, and the draw was one time in 8 to evict less. The
;             other half only count in the total: a load whose values all
;             differ costs fewer microinstructions a record (longer
;             routines let fewer records in: the random tagger thins the
;             tagging while the buffer drops, docs/coproc.md)
;   total     every sample (b1 + s); it saturates first (the ways' counts
;             add up to at most it): interrupt (reason 3), the handler
;             harvests
;
; so a value's count grows from the first time it is taken, whichever
; other values come between. Informational replacement weighs the
; candidate slot's total 8 times as much as value.s does: a load without a
; slot takes it when a random 0..255 is at least 8 x its total, so a slot
; with 32 samples is kept until the next harvest and fewer of the records
; that reached the slots are thrown away with a replaced slot (branch
; lvp6). Slot replacement, thrash detection and the handler's masking,
; partitions and time slices are value.s's, but for
; at most 16 partitions instead of 64 (max_width 4): a load's samples then
; come from windows of a sixteenth of the run rather than a sixty-fourth,
; closer to the run as a whole (sqlite3, docs/coproc.md, branch lvp6).
;
; The spill ring (branch lvp7): before a slot is replaced, the victim's
; pc, its total, and its largest way's key and own count (less what the
; way inherited) are written to a ring at b2; the handler merges them into
; the profile at the next harvest like the slots' ways. An evicted way
; writes an entry of the same shape with a total of 0 (its slot's total
; reaches the profile with the slot), only while the ring has room for a
; slot's entry besides, so a slot's spill always fits. Without it a
; lukewarm load whose slot is replaced over and over reached the profile
; only as the one sample its slot held at a harvest (estimate 1.00, true
; invariance a few percent: bzip2-compress). 512 entries: a slot is
; replaced at most 512 times between harvests (thrashing interrupts), so
; the ring-full interrupt (reason 4) was a safeguard. Evicted ways can
; fill it: then they are not spilled (their hits are lost, as before
; branch evict) until a replaced slot's entry fills the ring and
; interrupts, or the next harvest empties it.
;
; Data array: b1 + entry = the slot's total (entries 0..127) or a way's
; count (128..639); b3 + entry = what a way inherited; b0 + entry = the
; slot's pc or the way's key (the CAM cannot be read by the microcode);
; b2 the spill ring, v7 the words written to it. The co-processor is
; built with at least `cam_entries` CAM entries and `data_words` words,
; and the handler's profile table with `profile_entries` (with the spill,
; sqlite3's 12,168 loads reach the profile), and its sample buffer with
; `buffer_entries` records (branch lvp8): loads retire in bursts, and with
; 32 records the buffer overflowed while the co-processor was mostly idle;
; the random tagger's governor then thinned every load, and lukewarm loads
; kept so few records that their largest value's share overstated their
; invariance (bzip2-compress).
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
          inc [b1 + i1]                           ; the value's count
count:    inc [b1 + i0]          -> nsat DONE     ; the slot's total
          mov i4, 3              -> INTERRUPT     ; a total counter is full
newval:   add i3, i0, c8                          ; way 3 (ways fill in order)
          ld v2, [b1 + i3]       -> nz full       ; used: no way is empty
          add i2, i0, c9                          ; way 1 (v2 = 0: inherits nothing)
          ld v3, [b1 + i2]       -> z take        ; empty: the value takes it
          add i2, i2, c5                          ; way 2
          ld v3, [b1 + i2]       -> z take
          mov i2, i3             -> take          ; way 3
full:     rand v3, c6            -> nz count      ; 7 in 8 new values: not counted
          add i2, i0, c5                          ; way 0
          ld v2, [b1 + i2]       -> z take        ; empty
          add i3, i2, c5                          ; way 1
          ld v3, [b1 + i3]
          cmp v3, v2             -> ge way2
          mov v2, v3
          mov i2, i3
way2:     add i3, i3, c5
          ld v3, [b1 + i3]
          cmp v3, v2             -> ge way3
          mov v2, v3
          mov i2, i3
way3:     add i3, i3, c5
          ld v3, [b1 + i3]
          cmp v3, v2             -> ge evict
          mov v2, v3
          mov i2, i3
evict:    ld v3, [b3 + i2]                        ; the victim's own hits:
          sub v3, v2, v3                          ; its count less what it inherited
          cmp v3, c10            -> lt take       ; one hit: not worth a ring entry
          add v4, v7, 8
          cmp c7, v4             -> lt take       ; keep room for a slot's spill
          st [b2 + v7], pc                        ; spill the way: its pc,
          add v7, v7, 1
          st [b2 + v7], 0                         ; no total (the slot's comes later),
          add v7, v7, 1
          ld v4, [b0 + i2]                        ; its key
          st [b2 + v7], v4
          add v7, v7, 1
          st [b2 + v7], v3                        ; and its own hits
          add v7, v7, 1
take:     camw i2, v1                             ; the smallest count's way
          st [b0 + i2], v1                        ; its key, for the spill
          st [b3 + i2], v2                        ; ... inherited
          inc [b1 + i2]          -> count         ; goes on from it + 1
nomatch:  hash v5, pc                             ; no slot: the load's tally in the ring
          add v5, v5, c12                         ; its pointer (absolute: b1 is 0)
          ld v4, [b1 + v5]       -> z tally       ; none yet
          cmp v7, v4             -> lt tally      ; from before the last harvest
          sub v4, v4, 1
          ld v3, [b2 + v4]
          cmp v3, pc             -> nz tally      ; another load's (the same hash)
          rand v3, c11           -> z promote     ; one in 4: try for a slot
          add v6, v4, 2
          ld v3, [b2 + v6]                        ; its value's key
          cmp v3, v1             -> z valhit
          add v4, v4, 1          -> totalonly
valhit:   add v6, v6, 1
          inc [b2 + v6]                           ; the value's count
total:    add v4, v4, 1
totalonly:inc [b2 + v4]          -> DONE          ; the tally's total
tally:    ld v2, [b1 + i7]       -> z alloc       ; an empty candidate slot: take it
          st [b2 + v7], pc                        ; a new tally, an entry of the ring: its pc,
          add v7, v7, 1
          st [b1 + v5], v7                        ; (its pointer: the total's word)
          st [b2 + v7], 1                         ; its total,
          add v7, v7, 1
          st [b2 + v7], v1                        ; this value's key
          add v7, v7, 1
          st [b2 + v7], 1                         ; and its count
          add v7, v7, 1          -> ring
promote:  ld v2, [b1 + i7]                        ; the candidate's total
          shl v2, v2, 3                           ; x 8: 32 samples keep a slot
          rand v3, c4
          cmp v3, v2             -> lt failed     ; it has seen more: keep it
          ld v2, [b1 + i7]       -> z alloc       ; an empty slot: nothing to spill
          ld v3, [b0 + i7]                        ; spill the victim: its pc,
          st [b2 + v7], v3
          add v7, v7, 1
          st [b2 + v7], v2                        ; its total,
          add v7, v7, 1
          add i2, i7, c5                          ; its largest way (way 0 first)
          ld v2, [b1 + i2]
          add i3, i2, c5
          ld v3, [b1 + i3]
          cmp v2, v3             -> ge sp2
          mov v2, v3
          mov i2, i3
sp2:      add i3, i3, c5
          ld v3, [b1 + i3]
          cmp v2, v3             -> ge sp3
          mov v2, v3
          mov i2, i3
sp3:      add i3, i3, c5
          ld v3, [b1 + i3]
          cmp v2, v3             -> ge sp4
          mov v2, v3
          mov i2, i3
sp4:      ld v3, [b3 + i2]                        ; its own count (less inherited)
          sub v2, v2, v3
          ld v3, [b0 + i2]                        ; and its key
          st [b2 + v7], v3
          add v7, v7, 1
          st [b2 + v7], v2
          add v7, v7, 1
alloc:    camw i7, pc
          st [b0 + i7], pc
          st [b1 + i7], 1                         ; this sample
          add i2, i7, c5                          ; way 0 takes its value
          shl v1, pc, 40
          xor v1, v1, value
          camw i2, v1
          st [b0 + i2], v1
          st [b1 + i2], 1
          st [b3 + i2], 0
          add i2, i2, c5                          ; ways 1-3 are empty
          caminv i2
          st [b1 + i2], 0
          add i2, i2, c5
          caminv i2
          st [b1 + i2], 0
          add i2, i2, c5
          caminv i2
          st [b1 + i2], 0
          add i7, i7, 1
          and i7, i7, c3
          sub i6, i6, 1
          add i5, i5, 1
          cmp i5, c2             -> lt ring
          mov i4, 2              -> INTERRUPT     ; thrashing
ring:     cmp v7, c7             -> lt DONE
          mov i4, 4              -> INTERRUPT     ; the spill ring is full
failed:   add i6, i6, 1
          cmp i6, c1             -> lt DONE
          mov i4, 1              -> INTERRUPT     ; the slots hold the working set
