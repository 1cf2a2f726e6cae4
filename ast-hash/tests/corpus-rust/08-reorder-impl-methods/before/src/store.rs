use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub id: u64,
    pub text: String,
}

#[derive(Debug, PartialEq, Eq)]
pub struct NotFound(pub u64);

/// In-memory note store; ids are never reused.
#[derive(Default)]
pub struct NoteStore {
    next_id: u64,
    notes: BTreeMap<u64, Note>,
}

impl NoteStore {
    /// Removes a note; removing a missing note is an error.
    pub fn delete(&mut self, id: u64) -> Result<Note, NotFound> {
        self.notes.remove(&id).ok_or(NotFound(id))
    }

    /// All notes ordered by id.
    pub fn list(&self) -> Vec<&Note> {
        self.notes.values().collect()
    }

    pub fn new() -> Self {
        NoteStore {
            next_id: 1,
            notes: BTreeMap::new(),
        }
    }

    /// Replaces the text of an existing note.
    pub fn update(&mut self, id: u64, text: &str) -> Result<&Note, NotFound> {
        let note = self.notes.get_mut(&id).ok_or(NotFound(id))?;
        note.text = text.to_string();
        Ok(note)
    }

    /// Stores a new note and returns it with its id.
    pub fn create(&mut self, text: &str) -> &Note {
        let id = self.next_id;
        self.next_id += 1;
        self.notes.entry(id).or_insert(Note {
            id,
            text: text.to_string(),
        })
    }

    pub fn get(&self, id: u64) -> Result<&Note, NotFound> {
        self.notes.get(&id).ok_or(NotFound(id))
    }
}
