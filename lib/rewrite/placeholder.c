/* placeholder until the owner lands code */
int vast_rw_placeholder_;
