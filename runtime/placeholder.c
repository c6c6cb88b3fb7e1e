/* placeholder until the owner lands code */
int vast_rt_placeholder_;
