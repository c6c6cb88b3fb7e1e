/* placeholder until the owner lands code */
int vast_an_placeholder_;
